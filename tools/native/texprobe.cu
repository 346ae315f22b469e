// texprobe.cu: measures how a GPU's texture unit weighs texels, to check warpsim's model of it
// (src/front/ptx/ptx_tex.c) against hardware. Textures of unit texels (one channel 1, the rest
// 0) make each fetch return its filter weights directly:
//   w1  x: tex1D linear, 2 texels (1,0,0,0) (0,1,0,0), unnormalised: the two weights at x
//   w2  x y: tex2D linear, 2x2 texels, unnormalised: the four weights (x0y0 x1y0 x0y1 x1y1)
//   w2n x y: as w2 over a 13x7 texture of those 2x2 tiles, normalised coordinates, wrap
//   w2u x y: as w2 on uchar4 texels read as normalised floats
//   w3a, w3b x y z: tex3D linear, 2x2x2, unnormalised: weights of z0 and of z1
//   cube x y z: texCubemap, 1x1 faces holding their face number: the face a direction picks
// One line per fetch: the kind, the coordinates and what came back, printed exactly (%a).
//   nvcc -cudart shared -o texprobe texprobe.cu && ./texprobe > probe.txt
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                 \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "texprobe: %s at line %d: %s\n", cudaGetErrorString(e_), __LINE__, #call); \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

__global__ void fetch(cudaTextureObject_t t, int dims, const float4 *c, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 p = c[i];
    out[i] = dims == 1   ? tex1D<float4>(t, p.x)
             : dims == 2 ? tex2D<float4>(t, p.x, p.y)
             : dims == 3 ? tex3D<float4>(t, p.x, p.y, p.z)
                         : texCubemap<float4>(t, p.x, p.y, p.z);
}

__global__ void fetch_int(cudaTextureObject_t t, const float4 *c, int4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<int4>(t, c[i].x, c[i].y);
}

static int exact3d = 0; // disableTrilinearOptimization of the next texture made

static cudaTextureObject_t make(int w, int h, int d, unsigned flags, const void *texels, bool uchar, bool linear,
                                bool norm, cudaTextureAddressMode mode)
{
    cudaChannelFormatDesc desc = uchar ? cudaCreateChannelDesc<uchar4>() : cudaCreateChannelDesc<float4>();
    cudaArray_t arr;
    CHECK(cudaMalloc3DArray(&arr, &desc, make_cudaExtent(w, h, d), flags));
    cudaMemcpy3DParms p = {};
    size_t eb = uchar ? 4 : 16;
    p.srcPtr = make_cudaPitchedPtr((void *)texels, w * eb, w, h ? h : 1);
    p.dstArray = arr;
    p.extent = make_cudaExtent(w, h ? h : 1, d ? d : 1);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
    td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = uchar ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    td.normalizedCoords = norm;
    td.disableTrilinearOptimization = exact3d;
    td.borderColor[0] = 7.0f, td.borderColor[1] = -2.5f, td.borderColor[2] = 0.0f, td.borderColor[3] = 1e9f;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &res, &td, NULL));
    return t;
}

static void run(const char *kind, cudaTextureObject_t t, int dims, const std::vector<float4> &c)
{
    int n = (int)c.size();
    float4 *dc, *dout;
    CHECK(cudaMalloc(&dc, n * sizeof(float4)));
    CHECK(cudaMalloc(&dout, n * sizeof(float4)));
    CHECK(cudaMemcpy(dc, c.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    fetch<<<(n + 127) / 128, 128>>>(t, dims, dc, dout, n);
    CHECK(cudaGetLastError());
    std::vector<float4> out(n);
    CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        printf("%s %a %a %a | %a %a %a %a\n", kind, c[i].x, c[i].y, c[i].z, out[i].x, out[i].y, out[i].z, out[i].w);
    CHECK(cudaFree(dc));
    CHECK(cudaFree(dout));
}

static float4 unit(int k) { return make_float4(k == 0, k == 1, k == 2, k == 3); }

int main()
{
    std::vector<float4> c;
    // 1D: x over [0.5, 1.5] in steps of 1/2048, then a few far-off fractions
    float4 t1[2] = {unit(0), unit(1)};
    for (int i = 0; i <= 2048; i++)
        c.push_back(make_float4(0.5f + i / 2048.0f, 0, 0, 0));
    run("w1", make(2, 0, 0, 0, t1, false, true, false, cudaAddressModeClamp), 1, c);
    // 2D: pseudo-random (x, y) in [0.5, 1.5)^2, and a lattice of 1/16 steps
    float4 t2[4] = {unit(0), unit(1), unit(2), unit(3)};
    c.clear();
    unsigned s = 12345;
    for (int i = 0; i < 1500; i++) {
        s = s * 1103515245u + 12345u;
        float x = 0.5f + (s >> 8) / 16777216.0f;
        s = s * 1103515245u + 12345u;
        float y = 0.5f + (s >> 8) / 16777216.0f;
        c.push_back(make_float4(x, y, 0, 0));
    }
    for (int i = 0; i <= 16; i++)
        for (int j = 0; j <= 16; j++)
            c.push_back(make_float4(0.5f + i / 16.0f, 0.5f + j / 16.0f, 0, 0));
    run("w2", make(2, 2, 0, 0, t2, false, true, false, cudaAddressModeClamp), 2, c);
    unsigned char u2[16] = {255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255};
    run("w2u", make(2, 2, 0, 0, u2, true, true, false, cudaAddressModeClamp), 2, c);
    // normalised: a 13x7 texture tiled with the 2x2 pattern (even x, even y -> unit 0, ...)
    std::vector<float4> t13(13 * 7);
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 13; x++)
            t13[y * 13 + x] = unit((x & 1) + 2 * (y & 1));
    std::vector<float4> cn;
    for (int i = 0; i < 1500; i++) {
        s = s * 1103515245u + 12345u;
        float x = (s >> 8) / 16777216.0f;
        s = s * 1103515245u + 12345u;
        float y = (s >> 8) / 16777216.0f;
        cn.push_back(make_float4(x, y, 0, 0));
    }
    run("w2n", make(13, 7, 0, 0, t13.data(), false, true, true, cudaAddressModeWrap), 2, cn);
    // 3D: two textures, each holding units in one z slice
    float4 t3a[8] = {unit(0), unit(1), unit(2), unit(3), unit(9), unit(9), unit(9), unit(9)};
    float4 t3b[8] = {unit(9), unit(9), unit(9), unit(9), unit(0), unit(1), unit(2), unit(3)};
    c.clear();
    for (int i = 0; i < 1000; i++) {
        float v[3];
        for (int k = 0; k < 3; k++) {
            s = s * 1103515245u + 12345u;
            v[k] = 0.5f + (s >> 8) / 16777216.0f;
        }
        c.push_back(make_float4(v[0], v[1], v[2], 0));
    }
    run("w3a", make(2, 2, 2, 0, t3a, false, true, false, cudaAddressModeClamp), 3, c);
    run("w3b", make(2, 2, 2, 0, t3b, false, true, false, cudaAddressModeClamp), 3, c);
    exact3d = 1;
    run("w3c", make(2, 2, 2, 0, t3a, false, true, false, cudaAddressModeClamp), 3, c);
    run("w3d", make(2, 2, 2, 0, t3b, false, true, false, cudaAddressModeClamp), 3, c);
    exact3d = 0;
    // int4 texels, point sampled, border: what the float border colour reads as
    {
        int4 ti[4] = {make_int4(1, 2, 3, 4), make_int4(5, 6, 7, 8), make_int4(9, 10, 11, 12), make_int4(13, 14, 15, 16)};
        cudaChannelFormatDesc desc = cudaCreateChannelDesc<int4>();
        cudaArray_t arr;
        CHECK(cudaMallocArray(&arr, &desc, 2, 2));
        CHECK(cudaMemcpy2DToArray(arr, 0, 0, ti, 32, 32, 2, cudaMemcpyHostToDevice));
        cudaResourceDesc res = {};
        res.resType = cudaResourceTypeArray;
        res.res.array.array = arr;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
        td.borderColor[0] = 7.0f, td.borderColor[1] = -2.5f, td.borderColor[2] = 0.0f, td.borderColor[3] = 1e9f;
        cudaTextureObject_t t;
        CHECK(cudaCreateTextureObject(&t, &res, &td, NULL));
        std::vector<float4> ci = {make_float4(0.5f, 0.5f, 0, 0), make_float4(-0.5f, 0.5f, 0, 0),
                                  make_float4(2.5f, 1.5f, 0, 0), make_float4(1.5f, 9.0f, 0, 0)};
        float4 *dc;
        int4 *dout;
        CHECK(cudaMalloc(&dc, 4 * sizeof(float4)));
        CHECK(cudaMalloc(&dout, 4 * sizeof(int4)));
        CHECK(cudaMemcpy(dc, ci.data(), 4 * sizeof(float4), cudaMemcpyHostToDevice));
        fetch_int<<<1, 4>>>(t, dc, dout, 4);
        int4 o[4];
        CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 4; i++)
            printf("int %a %a 0 | %d %d %d %d\n", ci[i].x, ci[i].y, o[i].x, o[i].y, o[i].z, o[i].w);
    }
    // cube maps: every direction with two or three coordinates of equal magnitude
    float4 tc[6];
    for (int f = 0; f < 6; f++)
        tc[f] = make_float4((float)f, 0, 0, 0);
    c.clear();
    const float vals[5] = {-1, -0.5f, 0, 0.5f, 1};
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < 5; k++)
                c.push_back(make_float4(vals[i], vals[j], vals[k], 0));
    run("cube", make(1, 1, 6, cudaArrayCubemap, tc, false, false, true, cudaAddressModeClamp), 4, c);
    return 0;
}
