/* test_cuda_driver_mem.c: the memory calls of the libcuda replacement (src/api/driver_memory.c,
 * driver_array.c, driver_texture.c, driver_vmm.c), called in-process as a driver-API program
 * calls them: pinned host memory a kernel writes through, 16-bit and 2D memsets, pitched
 * allocations, address ranges and pointer attributes, arrays filled and read back with
 * cuMemcpy2D, texture objects over arrays, pitched and linear memory fetched by a kernel, and
 * virtual memory management. The simulator is the driver's, on the gtx480 preset
 * (test_cuda_driver.c sets it up the same way). */
#include "../test.h"

#include "base/base.h"

#include <cuda/cuda.h>
#include <stdlib.h>

/* tex2d: out[y * w + x] = the texture at (x + 0.5, y + 0.5), channel 0, for a w x h block;
 * tex1d_u8: out[i] = the texture's element i as a float (tex1Dfetch), i < 8; scale: p[i] *= 2. */
static const char mem_ptx[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry tex2d(.param .u64 t, .param .u64 out)\n{\n"
    "  .reg .b32 %r<8>; .reg .f32 %f<8>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [t];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %tid.y;\n  mov.u32 %r3, %ntid.x;\n"
    "  cvt.rn.f32.u32 %f1, %r1;\n  add.f32 %f1, %f1, 0f3F000000;\n"
    "  cvt.rn.f32.u32 %f2, %r2;\n  add.f32 %f2, %f2, 0f3F000000;\n"
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "  mad.lo.u32 %r4, %r2, %r3, %r1;\n  mul.wide.u32 %rd3, %r4, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.f32 [%rd4], %f3;\n  ret;\n}\n"
    ".visible .entry tex1d(.param .u64 t, .param .u64 out)\n{\n"
    "  .reg .b32 %r<4>; .reg .f32 %f<5>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [t];\n  ld.param.u64 %rd2, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd2, %rd3;\n  st.global.f32 [%rd4], %f1;\n  ret;\n}\n"
    ".visible .entry scale(.param .u64 p)\n{\n"
    "  .reg .b32 %r<2>; .reg .f32 %f<3>; .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  ld.f32 %f1, [%rd3];\n  add.f32 %f2, %f1, %f1;\n  st.f32 [%rd3], %f2;\n"
    "  ret;\n}\n";

static CUmodule mem_module(void)
{
    static CUmodule mod;
    if (mod)
        return mod;
    setenv("WARPSIM_ARGS", "--quiet", 1); /* as test_cuda_driver.c does, whichever runs first */
    CUcontext ctx;
    if (cuInit(0) != CUDA_SUCCESS || cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS ||
        cuCtxSetCurrent(ctx) != CUDA_SUCCESS)
        return NULL;
    return cuModuleLoadData(&mod, mem_ptx) == CUDA_SUCCESS ? mod : NULL;
}

static CUresult launch(const char *kernel, unsigned bx, unsigned by, void **params)
{
    CUfunction f;
    CUresult r = cuModuleGetFunction(&f, mem_module(), kernel);
    return r != CUDA_SUCCESS ? r : cuLaunchKernel(f, 1, 1, 1, bx, by, 1, 0, NULL, params, NULL);
}

TEST(cuda_driver_pinned_host_memory)
{
    ASSERT(mem_module());
    float *h = NULL;
    ASSERT(cuMemHostAlloc((void **)&h, 64 * sizeof *h, CU_MEMHOSTALLOC_DEVICEMAP) == CUDA_SUCCESS);
    for (int i = 0; i < 64; i++)
        h[i] = (float)i;
    CUdeviceptr d = 0;
    EXPECT_EQ_I(cuMemHostGetDevicePointer(&d, h, 0), CUDA_SUCCESS);
    EXPECT(d == (CUdeviceptr)(uintptr_t)h); /* unified addressing */
    void *params[] = {&d};
    EXPECT_EQ_I(launch("scale", 64, 1, params), CUDA_SUCCESS);
    EXPECT_NEAR(h[63], 126, 0); /* the kernel wrote the host's memory */
    unsigned flags = 0, type = 0;
    EXPECT_EQ_I(cuMemHostGetFlags(&flags, h + 3), CUDA_SUCCESS);
    EXPECT_EQ_U(flags, CU_MEMHOSTALLOC_DEVICEMAP);
    EXPECT_EQ_I(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 8), CUDA_SUCCESS);
    EXPECT_EQ_U(type, CU_MEMORYTYPE_HOST);
    size_t range = 0;
    EXPECT_EQ_I(cuPointerGetAttribute(&range, CU_POINTER_ATTRIBUTE_RANGE_SIZE, d + 8), CUDA_SUCCESS);
    EXPECT_EQ_U(range, 64 * sizeof *h);
    EXPECT_EQ_I(cuMemFreeHost(h + 1), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuMemFreeHost(h), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemFreeHost(h), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuMemHostGetDevicePointer(&d, h, 0), CUDA_ERROR_INVALID_VALUE);
    /* the program's own memory, registered; and cuMemAllocHost */
    static float mine[32];
    EXPECT_EQ_I(cuMemHostRegister(mine, sizeof mine, CU_MEMHOSTREGISTER_DEVICEMAP), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemHostRegister(mine + 4, 8, 0), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    mine[5] = 2.5f;
    d = (CUdeviceptr)(uintptr_t)mine;
    EXPECT_EQ_I(launch("scale", 32, 1, params), CUDA_SUCCESS);
    EXPECT_NEAR(mine[5], 5, 0);
    EXPECT_EQ_I(cuMemHostUnregister(mine), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemHostUnregister(mine), CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
    void *p = NULL;
    EXPECT_EQ_I(cuMemAllocHost(&p, 100), CUDA_SUCCESS);
    EXPECT(p != NULL && ((uintptr_t)p & 4095) == 0);
    EXPECT_EQ_I(cuMemFreeHost(p), CUDA_SUCCESS);
}

TEST(cuda_driver_memsets_pitch_and_ranges)
{
    ASSERT(mem_module());
    CUdeviceptr d;
    ASSERT(cuMemAlloc(&d, 64) == CUDA_SUCCESS);
    uint16_t h16[32];
    EXPECT_EQ_I(cuMemsetD8(d, 0xab, 64), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemsetD16(d + 2, 0x1234, 5), CUDA_SUCCESS);
    cuMemcpyDtoH(h16, d, sizeof h16);
    EXPECT_EQ_U(h16[0], 0xabab);
    EXPECT_EQ_U(h16[1], 0x1234);
    EXPECT_EQ_U(h16[5], 0x1234);
    EXPECT_EQ_U(h16[6], 0xabab);
    EXPECT_EQ_I(cuMemsetD16Async(d, 0x7777, 40, NULL), CUDA_ERROR_INVALID_VALUE); /* 80 bytes of 64 */
    cuMemcpyDtoH(h16, d, sizeof h16);
    EXPECT_EQ_U(h16[0], 0xabab); /* all or nothing */
    /* the allocation holding an address */
    CUdeviceptr base = 0;
    size_t size = 0;
    EXPECT_EQ_I(cuMemGetAddressRange(&base, &size, d + 17), CUDA_SUCCESS);
    EXPECT(base == d && size == 64);
    EXPECT_EQ_I(cuMemGetAddressRange(&base, &size, d + 64 + (1 << 20)), CUDA_ERROR_NOT_FOUND);
    unsigned type = 0;
    EXPECT_EQ_I(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d), CUDA_SUCCESS);
    EXPECT_EQ_U(type, CU_MEMORYTYPE_DEVICE);
    EXPECT_EQ_I(cuPointerGetAttribute(&base, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, d + 40), CUDA_SUCCESS);
    EXPECT(base == d);
    void *hp = &type;
    EXPECT_EQ_I(cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, d), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (uintptr_t)&type),
                CUDA_ERROR_INVALID_VALUE);
    cuMemFree(d);
    /* pitched rows at 512-byte boundaries; a 2D memset of 32-bit values leaves the padding */
    size_t pitch = 0;
    EXPECT_EQ_I(cuMemAllocPitch(&d, &pitch, 100, 3, 4), CUDA_SUCCESS);
    EXPECT_EQ_U(pitch, 512);
    EXPECT_EQ_I(cuMemsetD2D8(d, pitch, 0, pitch, 3), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemsetD2D32(d, pitch, 0xdeadbeef, 25, 3), CUDA_SUCCESS);
    uint32_t rows[3 * 128];
    cuMemcpyDtoH(rows, d, sizeof rows);
    EXPECT_EQ_U(rows[0], 0xdeadbeef);
    EXPECT_EQ_U(rows[24], 0xdeadbeef);
    EXPECT_EQ_U(rows[25], 0);
    EXPECT_EQ_U(rows[2 * 128 + 24], 0xdeadbeef);
    EXPECT_EQ_U(rows[2 * 128 + 25], 0);
    EXPECT_EQ_I(cuMemsetD2D16(d, 10, 1, 6, 2), CUDA_ERROR_INVALID_VALUE); /* 12 bytes in a pitch of 10 */
    EXPECT_EQ_I(cuMemAllocPitch(&d, &pitch, 100, 3, 3), CUDA_ERROR_INVALID_VALUE);
}

/* A 2D float array of 16 x 8 filled from pitched host rows and read back through a box at an
 * offset, then fetched as a texture: element (x, y) = 100 y + x. */
TEST(cuda_driver_arrays_and_memcpy2d)
{
    ASSERT(mem_module());
    enum { W = 16, H = 8 };
    float host[H][W + 4]; /* a pitch wider than a row */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W + 4; x++)
            host[y][x] = x < W ? (float)(100 * y + x) : -1.0f;
    CUDA_ARRAY_DESCRIPTOR ad = {W, H, CU_AD_FORMAT_FLOAT, 1};
    CUarray arr;
    ASSERT(cuArrayCreate(&arr, &ad) == CUDA_SUCCESS);
    CUDA_MEMCPY2D c = {0};
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = host;
    c.srcPitch = sizeof host[0];
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = arr;
    c.WidthInBytes = W * sizeof(float);
    c.Height = H;
    EXPECT_EQ_I(cuMemcpy2D(&c), CUDA_SUCCESS);
    /* out again: a 4 x 3 box from (x 5, y 2), into device memory, then to the host */
    CUdeviceptr d;
    ASSERT(cuMemAlloc(&d, 4 * 3 * sizeof(float)) == CUDA_SUCCESS);
    CUDA_MEMCPY2D o = {0};
    o.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    o.srcArray = arr;
    o.srcXInBytes = 5 * sizeof(float);
    o.srcY = 2;
    o.dstMemoryType = CU_MEMORYTYPE_UNIFIED; /* a device address, told by the map */
    o.dstDevice = d;
    o.dstPitch = 4 * sizeof(float);
    o.WidthInBytes = 4 * sizeof(float);
    o.Height = 3;
    EXPECT_EQ_I(cuMemcpy2DAsync(&o, NULL), CUDA_SUCCESS);
    float box[3][4];
    cuMemcpyDtoH(box, d, sizeof box);
    EXPECT_NEAR(box[0][0], 205, 0);
    EXPECT_NEAR(box[2][3], 408, 0);
    /* the box leaving the array, a row wider than its pitch, a stale handle: refused */
    o.srcY = 6;
    EXPECT_EQ_I(cuMemcpy2D(&o), CUDA_ERROR_INVALID_VALUE);
    o.srcY = 0;
    o.dstPitch = 8;
    EXPECT_EQ_I(cuMemcpy2DUnaligned(&o), CUDA_ERROR_INVALID_VALUE);
    CUDA_ARRAY3D_DESCRIPTOR d3 = {0};
    EXPECT_EQ_I(cuArray3DGetDescriptor(&d3, arr), CUDA_SUCCESS);
    EXPECT(d3.Width == W && d3.Height == H && d3.Depth == 0 && d3.Format == CU_AD_FORMAT_FLOAT &&
           d3.NumChannels == 1 && d3.Flags == 0);
    /* the texture: a kernel fetches every element */
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = arr;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
    td.filterMode = CU_TR_FILTER_MODE_POINT;
    CUtexObject tex = 0;
    ASSERT(cuTexObjectCreate(&tex, &rd, &td, NULL) == CUDA_SUCCESS);
    CUdeviceptr dout;
    ASSERT(cuMemAlloc(&dout, W * H * sizeof(float)) == CUDA_SUCCESS);
    void *params[] = {&tex, &dout};
    EXPECT_EQ_I(launch("tex2d", W, H, params), CUDA_SUCCESS);
    float got[H][W];
    cuMemcpyDtoH(got, dout, sizeof got);
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            bad += got[y][x] != (float)(100 * y + x);
    EXPECT_EQ_I(bad, 0);
    CUDA_RESOURCE_DESC back = {0};
    EXPECT_EQ_I(cuTexObjectGetResourceDesc(&back, tex), CUDA_SUCCESS);
    EXPECT(back.resType == CU_RESOURCE_TYPE_ARRAY && back.res.array.hArray == arr);
    EXPECT_EQ_I(cuTexObjectDestroy(tex), CUDA_SUCCESS);
    EXPECT_EQ_I(cuTexObjectDestroy(tex), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuArrayDestroy(arr), CUDA_SUCCESS);
    EXPECT_EQ_I(cuArrayDestroy(arr), CUDA_ERROR_INVALID_HANDLE);
    c.dstArray = arr;
    EXPECT_EQ_I(cuMemcpy2D(&c), CUDA_ERROR_INVALID_HANDLE);
    /* formats warpsim does not take, channel counts CUDA does not */
    ad.Format = (CUarray_format)0xb0; /* CU_AD_FORMAT_NV12 */
    EXPECT_EQ_I(cuArrayCreate(&arr, &ad), CUDA_ERROR_NOT_SUPPORTED);
    ad.Format = CU_AD_FORMAT_UNSIGNED_INT8;
    ad.NumChannels = 3;
    EXPECT_EQ_I(cuArrayCreate(&arr, &ad), CUDA_ERROR_INVALID_VALUE);
    CUDA_ARRAY3D_DESCRIPTOR cube = {8, 8, 6, CU_AD_FORMAT_HALF, 2, CUDA_ARRAY3D_CUBEMAP};
    EXPECT_EQ_I(cuArray3DCreate(&arr, &cube), CUDA_SUCCESS);
    EXPECT_EQ_I(cuArrayDestroy(arr), CUDA_SUCCESS);
    cube.Depth = 5;
    EXPECT_EQ_I(cuArray3DCreate(&arr, &cube), CUDA_ERROR_INVALID_VALUE);
    cuMemFree(d);
    cuMemFree(dout);
}

/* Pitched and linear textures: bytes read as floats in [0, 1] unless CU_TRSF_READ_AS_INTEGER. */
TEST(cuda_driver_texture_objects_over_memory)
{
    ASSERT(mem_module());
    enum { W = 8, H = 2 };
    CUdeviceptr d;
    size_t pitch;
    ASSERT(cuMemAllocPitch(&d, &pitch, W * sizeof(float), H, 4) == CUDA_SUCCESS);
    float rows[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            rows[y][x] = (float)(10 * y + x);
    CUDA_MEMCPY2D c = {0};
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = rows;
    c.srcPitch = sizeof rows[0];
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = d;
    c.dstPitch = pitch;
    c.WidthInBytes = sizeof rows[0];
    c.Height = H;
    EXPECT_EQ_I(cuMemcpy2D(&c), CUDA_SUCCESS);
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_PITCH2D;
    rd.res.pitch2D.devPtr = d;
    rd.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
    rd.res.pitch2D.numChannels = 1;
    rd.res.pitch2D.width = W;
    rd.res.pitch2D.height = H;
    rd.res.pitch2D.pitchInBytes = pitch;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    CUtexObject tex;
    ASSERT(cuTexObjectCreate(&tex, &rd, &td, NULL) == CUDA_SUCCESS);
    CUdeviceptr dout;
    ASSERT(cuMemAlloc(&dout, 64 * sizeof(float)) == CUDA_SUCCESS);
    void *params[] = {&tex, &dout};
    EXPECT_EQ_I(launch("tex2d", W, H, params), CUDA_SUCCESS);
    float got[H][W];
    cuMemcpyDtoH(got, dout, sizeof got);
    EXPECT_NEAR(got[1][7], 17, 0);
    EXPECT_NEAR(got[0][3], 3, 0);
    cuTexObjectDestroy(tex);
    rd.res.pitch2D.pitchInBytes = 20; /* not a multiple of 32 */
    EXPECT_EQ_I(cuTexObjectCreate(&tex, &rd, &td, NULL), CUDA_ERROR_INVALID_VALUE);
    /* linear memory of bytes: normalised by default */
    uint8_t bytes[8] = {0, 51, 102, 255, 1, 2, 3, 4};
    CUdeviceptr db;
    ASSERT(cuMemAlloc(&db, sizeof bytes) == CUDA_SUCCESS);
    cuMemcpyHtoD(db, bytes, sizeof bytes);
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_LINEAR;
    rd.res.linear.devPtr = db;
    rd.res.linear.format = CU_AD_FORMAT_UNSIGNED_INT8;
    rd.res.linear.numChannels = 1;
    rd.res.linear.sizeInBytes = sizeof bytes;
    ASSERT(cuTexObjectCreate(&tex, &rd, &td, NULL) == CUDA_SUCCESS);
    EXPECT_EQ_I(launch("tex1d", 8, 1, params), CUDA_SUCCESS);
    float f[8];
    cuMemcpyDtoH(f, dout, sizeof f);
    EXPECT_NEAR(f[1], 0.2, 1e-6);
    EXPECT_NEAR(f[3], 1.0, 0);
    CUDA_TEXTURE_DESC tback = {0};
    EXPECT_EQ_I(cuTexObjectGetTextureDesc(&tback, tex), CUDA_SUCCESS);
    EXPECT_EQ_U(tback.flags, 0);
    cuTexObjectDestroy(tex);
    /* the memory must be the device's; sRGB, mipmaps and views are refused */
    rd.res.linear.devPtr = db + 1000000;
    EXPECT_EQ_I(cuTexObjectCreate(&tex, &rd, &td, NULL), CUDA_ERROR_INVALID_VALUE);
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    EXPECT_EQ_I(cuTexObjectCreate(&tex, &rd, &td, NULL), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT_EQ_I(cuTexObjectCreate(&tex, &rd, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    cuMemFree(d);
    cuMemFree(db);
    cuMemFree(dout);
}

/* Virtual memory management: two 2 MiB allocations mapped side by side in a reservation, a
 * kernel and copies on them, one unmapped and mapped again elsewhere with its bytes. */
TEST(cuda_driver_virtual_memory)
{
    ASSERT(mem_module());
    const size_t MB2 = 2u << 20;
    int v = -1;
    EXPECT_EQ_I(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0), CUDA_SUCCESS);
    EXPECT_EQ_I(v, 1);
    EXPECT_EQ_I(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, 0), CUDA_SUCCESS);
    EXPECT_EQ_I(v, 0); /* gtx480: compute capability 2.0 */
    CUmemAllocationProp prop = {0};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_GENERIC;
    size_t gran = 0;
    EXPECT_EQ_I(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), CUDA_SUCCESS);
    EXPECT_EQ_U(gran, MB2);
    CUdeviceptr va = 0;
    ASSERT(cuMemAddressReserve(&va, 4 * MB2, 0, 0, 0) == CUDA_SUCCESS);
    EXPECT_EQ_U(va % MB2, 0);
    CUmemGenericAllocationHandle h[2];
    ASSERT(cuMemCreate(&h[0], MB2, &prop, 0) == CUDA_SUCCESS && cuMemCreate(&h[1], MB2, &prop, 0) == CUDA_SUCCESS);
    CUmemAllocationProp back = {0};
    EXPECT_EQ_I(cuMemGetAllocationPropertiesFromHandle(&back, h[0]), CUDA_SUCCESS);
    EXPECT_EQ_I(back.allocFlags.compressionType, CU_MEM_ALLOCATION_COMP_NONE); /* made without: none here */
    EXPECT_EQ_I(cuMemMap(va, MB2, 0, h[0], 0), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemMap(va + MB2, MB2, 0, h[1], 0), CUDA_SUCCESS);
    CUmemAccessDesc acc = {{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    EXPECT_EQ_I(cuMemSetAccess(va, 2 * MB2, &acc, 1), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemSetAccess(va, 3 * MB2, &acc, 1), CUDA_ERROR_INVALID_VALUE); /* the third is not mapped */
    unsigned long long flags = 0;
    EXPECT_EQ_I(cuMemGetAccess(&flags, &acc.location, va + MB2 + 8), CUDA_SUCCESS);
    EXPECT_EQ_U(flags, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    /* 64 floats across the seam: a kernel doubles them */
    float x[64], y[64];
    for (int i = 0; i < 64; i++)
        x[i] = (float)i;
    CUdeviceptr d = va + MB2 - 32 * sizeof(float);
    EXPECT_EQ_I(cuMemcpyHtoD(d, x, 32 * sizeof(float)), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemcpyHtoD(va + MB2, x + 32, 32 * sizeof(float)), CUDA_SUCCESS);
    void *params[] = {&d};
    EXPECT_EQ_I(launch("scale", 64, 1, params), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemcpyDtoH(y, d, 32 * sizeof(float)), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemcpyDtoH(y + 32, va + MB2, 32 * sizeof(float)), CUDA_SUCCESS);
    int bad = 0;
    for (int i = 0; i < 64; i++)
        bad += y[i] != 2.0f * (float)i;
    EXPECT_EQ_I(bad, 0);
    CUdeviceptr base = 0;
    size_t size = 0;
    EXPECT_EQ_I(cuMemGetAddressRange(&base, &size, va + MB2 + 5), CUDA_SUCCESS);
    EXPECT(base == va + MB2 && size == MB2);
    /* refused: a second mapping of one allocation, part of one, outside a reservation, cutting
     * a mapping, freeing the space under mappings */
    EXPECT_EQ_I(cuMemMap(va + 2 * MB2, MB2, 0, h[0], 0), CUDA_ERROR_NOT_SUPPORTED);
    CUmemGenericAllocationHandle h2;
    ASSERT(cuMemCreate(&h2, 2 * MB2, &prop, 0) == CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemMap(va + 2 * MB2, MB2, 0, h2, 0), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT_EQ_I(cuMemMap(va + 3 * MB2, 2 * MB2, 0, h2, 0), CUDA_ERROR_INVALID_VALUE); /* past the end */
    EXPECT_EQ_I(cuMemRelease(h2), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemUnmap(va, MB2 / 2), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuMemAddressFree(va, 4 * MB2), CUDA_ERROR_INVALID_VALUE);
    /* h[1] unmapped and mapped again two slots on: its bytes went with it */
    EXPECT_EQ_I(cuMemUnmap(va + MB2, MB2), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemcpyDtoH(y, va + MB2, 4), CUDA_ERROR_INVALID_VALUE); /* nothing there now */
    EXPECT_EQ_I(cuMemMap(va + 3 * MB2, MB2, 0, h[1], 0), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemcpyDtoH(y, va + 3 * MB2, 32 * sizeof(float)), CUDA_SUCCESS);
    EXPECT_NEAR(y[31], 126, 0);
    /* released while mapped: freed at the unmap */
    EXPECT_EQ_I(cuMemRelease(h[0]), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemRelease(h[1]), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemGetAllocationPropertiesFromHandle(&back, h[1]), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuMemUnmap(va, 4 * MB2), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemAddressFree(va, 4 * MB2), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemAddressFree(va, 4 * MB2), CUDA_ERROR_INVALID_VALUE);
    /* what is not pinned memory on device 0 */
    prop.location.id = 1;
    EXPECT_EQ_I(cuMemCreate(&h2, MB2, &prop, 0), CUDA_ERROR_INVALID_DEVICE);
    prop.location.id = 0;
    prop.type = CU_MEM_ALLOCATION_TYPE_MANAGED;
    EXPECT_EQ_I(cuMemCreate(&h2, MB2, &prop, 0), CUDA_ERROR_NOT_SUPPORTED);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    EXPECT_EQ_I(cuMemCreate(&h2, MB2 + 1, &prop, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuMemAddressReserve(&va, 1000, 0, 0, 0), CUDA_ERROR_INVALID_VALUE);
}
