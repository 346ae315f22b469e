// textures.cu: texture objects over CUDA arrays and pitched 2D memory: tex1D, tex2D, tex3D,
// tex1DLayered, tex2DLayered and texCubemap, with point and linear filtering (CUDA's 9-bit
// fixed-point weights), normalised and unnormalised coordinates, the wrap, clamp, mirror and
// border address modes, and normalised-float reads of 8-bit channels. Each fetch is checked
// against a CPU model of the CUDA Programming Guide's texture-fetching rules.
#include "check.h"

#include <cmath>
#include <vector>

static int fetches, bad;

// ---- the CPU model ----

struct HostTex {
    int w, h, d, layers;            // d 1 below 3D; layers 1 when not layered (6 x n for a cube map)
    std::vector<float4> texels;     // already as floats: [layer][z][y][x]
    cudaTextureAddressMode mode[3];
    bool linear, norm;
    float4 border;
};

static float4 texel(const HostTex &t, int i, int j, int k, int layer)
{
    int n[3] = {t.w, t.h, t.d}, c[3] = {i, j, k};
    for (int a = 0; a < 3; a++) {
        cudaTextureAddressMode m = t.mode[a];
        if (!t.norm && (m == cudaAddressModeWrap || m == cudaAddressModeMirror))
            m = cudaAddressModeClamp; // wrap and mirror need normalised coordinates
        int v = c[a], N = n[a];
        if (m == cudaAddressModeWrap) {
            v = ((v % N) + N) % N;
        } else if (m == cudaAddressModeMirror) {
            int p = ((v % (2 * N)) + 2 * N) % (2 * N);
            v = p < N ? p : 2 * N - 1 - p;
        } else if (m == cudaAddressModeBorder) {
            if (v < 0 || v >= N)
                return t.border;
        } else {
            v = v < 0 ? 0 : v >= N ? N - 1 : v;
        }
        c[a] = v;
    }
    return t.texels[((size_t)(layer * t.d + c[2]) * t.h + c[1]) * t.w + c[0]];
}

// a * b / 256 rounded half up
static int mul8(int a, int b) { return (a * b + 128) >> 8; }

// The texels' weights in 1/256ths, wt[z][y][x], as an H200 computes them (tools/native/texprobe.cu):
// each alpha in 9-bit fixed point rounded half up; in 2D the alphas' product rounded and the rest
// by difference; in 3D split along z, then x, then y, each split rounded half up.
static void weights(int dims, const int a[3], int wt[2][2][2])
{
    if (dims == 3) {
        for (int z = 0; z < 2; z++) {
            int zw = z ? a[2] : 256 - a[2], xw[2] = {zw - mul8(zw, a[0]), mul8(zw, a[0])};
            for (int x = 0; x < 2; x++)
                wt[z][1][x] = mul8(xw[x], a[1]), wt[z][0][x] = xw[x] - wt[z][1][x];
        }
    } else if (dims == 2) {
        int p = mul8(a[0], a[1]);
        wt[0][0][0] = 256 - a[0] - a[1] + p, wt[0][0][1] = a[0] - p, wt[0][1][0] = a[1] - p, wt[0][1][1] = p;
    } else {
        wt[0][0][0] = 256 - a[0], wt[0][0][1] = a[0];
    }
}

static float4 sample(const HostTex &t, int dims, float x, float y, float z, int layer)
{
    float u[3] = {x, y, z};
    int i0[3] = {0, 0, 0}, a[3] = {0, 0, 0};
    int n[3] = {t.w, t.h, t.d};
    for (int k = 0; k < dims; k++) {
        float v = t.norm ? u[k] * n[k] : u[k];
        if (t.linear) {
            v -= 0.5f;
            i0[k] = (int)floorf(v);
            a[k] = (int)floorf((v - floorf(v)) * 256.0f + 0.5f); // 9-bit fixed point, 8 fractional bits
        } else {
            i0[k] = (int)floorf(v);
        }
    }
    if (!t.linear)
        return texel(t, i0[0], i0[1], i0[2], layer);
    int wts[2][2][2];
    weights(dims, a, wts);
    float4 r = make_float4(0, 0, 0, 0);
    for (int c = 0; c < (1 << dims); c++) {
        int idx[3] = {i0[0], i0[1], i0[2]}, hi[3] = {0, 0, 0};
        for (int k = 0; k < dims; k++) {
            hi[k] = (c >> k) & 1;
            idx[k] += hi[k];
        }
        float wt = wts[hi[2]][hi[1]][hi[0]] / 256.0f;
        float4 v = texel(t, idx[0], idx[1], idx[2], layer);
        r.x += wt * v.x, r.y += wt * v.y, r.z += wt * v.z, r.w += wt * v.w;
    }
    return r;
}

// tol: a relative tolerance; 3e-5 covers the hardware's blend of 8-bit channels read as normalised
// floats (within 1.6e-5 of the exact blend on an H200)
// (or abs, an absolute one, where larger)
static bool close(float a, float b, float abs)
{
    return fabsf(a - b) <= fmaxf(abs, 3e-5f * fmaxf(1.0f, fabsf(b)));
}

static void check(const char *what, const std::vector<float4> &got, const std::vector<float4> &want,
                  float abs = 0)
{
    int wrong = 0;
    for (size_t i = 0; i < got.size(); i++) {
        bool ok = close(got[i].x, want[i].x, abs) && close(got[i].y, want[i].y, abs) &&
                  close(got[i].z, want[i].z, abs) && close(got[i].w, want[i].w, abs);
        if (!ok && wrong++ < 3)
            printf("%s: fetch %zu: got (%g %g %g %g), expected (%g %g %g %g)\n", what, i, got[i].x, got[i].y,
                   got[i].z, got[i].w, want[i].x, want[i].y, want[i].z, want[i].w);
    }
    fetches += (int)got.size();
    bad += wrong;
}

// ---- kernels: one fetch per thread at coordinates c[i] (layer or z in c[i].z / .w) ----

enum Geom { G1D, G2D, G3D, G1DL, G2DL, GCUBE };

__global__ void fetch(cudaTextureObject_t t, int geom, const float4 *c, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 p = c[i];
    float4 r;
    switch (geom) {
    case G1D: r = tex1D<float4>(t, p.x); break;
    case G2D: r = tex2D<float4>(t, p.x, p.y); break;
    case G3D: r = tex3D<float4>(t, p.x, p.y, p.z); break;
    case G1DL: r = tex1DLayered<float4>(t, p.x, (int)p.w); break;
    case G2DL: r = tex2DLayered<float4>(t, p.x, p.y, (int)p.w); break;
    default: r = texCubemap<float4>(t, p.x, p.y, p.z); break;
    }
    out[i] = r;
}

__global__ void fetch_int(cudaTextureObject_t t, const float4 *c, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<int>(t, c[i].x, c[i].y);
}

static std::vector<float4> run(cudaTextureObject_t t, Geom g, const std::vector<float4> &c)
{
    int n = (int)c.size();
    float4 *dc, *dout;
    CHECK(cudaMalloc(&dc, n * sizeof(float4)));
    CHECK(cudaMalloc(&dout, n * sizeof(float4)));
    CHECK(cudaMemcpy(dc, c.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    fetch<<<(n + 63) / 64, 64>>>(t, g, dc, dout, n);
    CHECK(cudaGetLastError());
    std::vector<float4> out(n);
    CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float4), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dc));
    CHECK(cudaFree(dout));
    return out;
}

// A float4 array of the host texture's texels (layers in the depth), and a texture object on it.
static cudaTextureObject_t make(const HostTex &h, int dims, unsigned flags, cudaArray_t *arr, bool uchar = false)
{
    int slices = h.d * h.layers;
    cudaChannelFormatDesc desc = uchar ? cudaCreateChannelDesc<uchar4>() : cudaCreateChannelDesc<float4>();
    cudaExtent e = make_cudaExtent(h.w, dims >= 2 ? h.h : 0, dims == 3 || flags ? slices : 0);
    CHECK(cudaMalloc3DArray(arr, &desc, e, flags));
    cudaMemcpy3DParms p = {};
    std::vector<uchar4> bytes(h.texels.size());
    for (size_t i = 0; i < bytes.size(); i++)
        bytes[i] = make_uchar4((unsigned char)lrintf(h.texels[i].x * 255), (unsigned char)lrintf(h.texels[i].y * 255),
                               (unsigned char)lrintf(h.texels[i].z * 255), (unsigned char)lrintf(h.texels[i].w * 255));
    size_t eb = uchar ? sizeof(uchar4) : sizeof(float4);
    p.srcPtr = make_cudaPitchedPtr(uchar ? (void *)bytes.data() : (void *)h.texels.data(), h.w * eb, h.w, h.h);
    p.dstArray = *arr;
    p.extent = make_cudaExtent(h.w, h.h, slices);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = *arr;
    cudaTextureDesc td = {};
    for (int k = 0; k < 3; k++)
        td.addressMode[k] = h.mode[k];
    td.filterMode = h.linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = uchar ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    td.normalizedCoords = h.norm;
    td.borderColor[0] = h.border.x, td.borderColor[1] = h.border.y;
    td.borderColor[2] = h.border.z, td.borderColor[3] = h.border.w;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &res, &td, NULL));
    return t;
}

static HostTex host(int w, int h, int d, int layers, bool linear, bool norm, cudaTextureAddressMode m0,
                    cudaTextureAddressMode m1, cudaTextureAddressMode m2, bool unit = false)
{
    HostTex t = {w, h, d, layers, {}, {m0, m1, m2}, linear, norm, make_float4(-1, -2, -3, -4)};
    t.texels.resize((size_t)w * h * d * layers);
    for (size_t i = 0; i < t.texels.size(); i++) // unit: values k/255, exact as 8-bit channels
        t.texels[i] = unit ? make_float4((i * 37 % 256) / 255.0f, (i * 11 % 256) / 255.0f, (i % 256) / 255.0f, 1)
                           : make_float4(i * 0.5f, (float)(i % 7), -(float)i, 100.0f + i);
    return t;
}

// Coordinates over [lo, hi) in each dimension, on a lattice of odd steps (fractions of texels).
static std::vector<float4> coords(int n, float lo, float hi, float layer_hi)
{
    std::vector<float4> c(n);
    for (int i = 0; i < n; i++) {
        float f = (float)i / n;
        c[i] = make_float4(lo + (hi - lo) * f, lo + (hi - lo) * fmodf(f * 7.31f, 1.0f),
                           lo + (hi - lo) * fmodf(f * 3.17f, 1.0f), floorf(layer_hi * fmodf(f * 5.3f, 1.0f)));
    }
    return c;
}

static void test(const char *what, Geom g, HostTex h, unsigned flags, float lo, float hi, bool uchar = false)
{
    int dims = g == G1D || g == G1DL ? 1 : g == G3D ? 3 : 2;
    cudaArray_t arr;
    cudaTextureObject_t t = make(h, dims, flags, &arr, uchar);
    std::vector<float4> c = coords(500, lo, hi, (float)h.layers);
    std::vector<float4> got = run(t, g, c), want(c.size());
    for (size_t i = 0; i < c.size(); i++)
        want[i] = sample(h, dims, c[i].x, c[i].y, c[i].z, (int)c[i].w);
    // 3D filtering: an H200's weights are within 1/256 of the model's (the same in 97.5% of
    // fetches): two weights off by 1/256 move a blend of these texels (spread 120) by 0.94
    check(what, got, want, dims == 3 && h.linear ? 1.0f : 0.0f);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(arr));
}

// texCubemap: the face of the largest coordinate, its (s, t), sampled as a normalised 2D layer
// (linear filtering clamps to the face's edges: CUDA's default is not seamless).
static void test_cube(bool linear)
{
    HostTex h = host(8, 8, 1, 6, linear, true, cudaAddressModeClamp, cudaAddressModeClamp, cudaAddressModeClamp);
    cudaArray_t arr;
    cudaTextureObject_t t = make(h, 2, cudaArrayCubemap, &arr);
    std::vector<float4> c = coords(600, -1.5f, 1.5f, 1);
    std::vector<float4> got = run(t, GCUBE, c), want(c.size());
    for (size_t i = 0; i < c.size(); i++) {
        float x = c[i].x, y = c[i].y, z = c[i].z, ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, s, tt;
        int face;
        if (az >= ax && az >= ay) // ties: z, then y, then x
            face = z >= 0 ? 4 : 5, m = az, s = z >= 0 ? x : -x, tt = -y;
        else if (ay >= ax)
            face = y >= 0 ? 2 : 3, m = ay, s = x, tt = y >= 0 ? z : -z;
        else
            face = x >= 0 ? 0 : 1, m = ax, s = x >= 0 ? -z : z, tt = -y;
        want[i] = sample(h, 2, (s / m + 1) / 2, (tt / m + 1) / 2, 0, face);
    }
    check(linear ? "texCubemap linear" : "texCubemap", got, want);
    CHECK(cudaDestroyTextureObject(t));
    if (linear && on_warpsim()) { // seamless filtering across faces: not modelled, so refused
        cudaResourceDesc res = {};
        res.resType = cudaResourceTypeArray;
        res.res.array.array = arr;
        cudaTextureDesc td = {};
        td.filterMode = cudaFilterModeLinear;
        td.normalizedCoords = 1;
        td.seamlessCubemap = 1;
        fetches++;
        bad += MISS_ERR(cudaCreateTextureObject(&t, &res, &td, NULL), cudaErrorNotSupported);
        cudaGetLastError();
    }
    CHECK(cudaFreeArray(arr));
}

// tex2D<int> on pitched memory, point sampled with border addressing: outside, the border
// colour's float bits (as the driver API documents and an H200 does).
static void test_pitch()
{
    const int w = 21, h = 11;
    size_t pitch;
    int *dev;
    CHECK(cudaMallocPitch((void **)&dev, &pitch, w * sizeof(int), h));
    std::vector<int> img(w * h);
    for (int i = 0; i < w * h; i++)
        img[i] = i * 3 - 50;
    CHECK(cudaMemcpy2D(dev, pitch, img.data(), w * sizeof(int), w * sizeof(int), h, cudaMemcpyHostToDevice));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = dev;
    res.res.pitch2D.desc = cudaCreateChannelDesc<int>();
    res.res.pitch2D.width = w;
    res.res.pitch2D.height = h;
    res.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
    td.borderColor[0] = 7;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &res, &td, NULL));
    cudaResourceDesc back;
    cudaTextureDesc tback;
    CHECK(cudaGetTextureObjectResourceDesc(&back, t));
    CHECK(cudaGetTextureObjectTextureDesc(&tback, t));
    fetches++;
    bad += MISS(back.resType != cudaResourceTypePitch2D || back.res.pitch2D.pitchInBytes != pitch ||
           tback.addressMode[1] != cudaAddressModeBorder);
    std::vector<float4> c = coords(400, -3.0f, 24.0f, 1);
    float4 *dc;
    int *dout;
    CHECK(cudaMalloc(&dc, c.size() * sizeof(float4)));
    CHECK(cudaMalloc(&dout, c.size() * sizeof(int)));
    CHECK(cudaMemcpy(dc, c.data(), c.size() * sizeof(float4), cudaMemcpyHostToDevice));
    fetch_int<<<(int)(c.size() + 63) / 64, 64>>>(t, dc, dout, (int)c.size());
    std::vector<int> got(c.size());
    CHECK(cudaMemcpy(got.data(), dout, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < c.size(); i++) {
        int x = (int)floorf(c[i].x), y = (int)floorf(c[i].y);
        int want = x < 0 || x >= w || y < 0 || y >= h ? 0x40e00000 : img[y * w + x]; // 7.0f's bits
        fetches++;
        bad += MISS(got[i] != want);
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(dev));
    CHECK(cudaFree(dc));
    CHECK(cudaFree(dout));
}

int main()
{
    const cudaTextureAddressMode W = cudaAddressModeWrap, C = cudaAddressModeClamp, M = cudaAddressModeMirror,
                                 B = cudaAddressModeBorder;
    test("tex2D point, clamp", G2D, host(13, 7, 1, 1, false, false, C, C, C), 0, -3, 16);
    test("tex2D point, border", G2D, host(13, 7, 1, 1, false, false, B, B, C), 0, -3, 16);
    test("tex2D linear, wrap x mirror, normalised", G2D, host(13, 7, 1, 1, true, true, W, M, C), 0, -1.3f, 2.2f);
    test("tex2D linear, border, unnormalised", G2D, host(9, 10, 1, 1, true, false, B, B, C), 0, -2, 12);
    test("tex2D linear on uchar4 as normalised floats", G2D, host(10, 6, 1, 1, true, true, W, W, C, true), 0, -1, 2,
         true);
    test("tex1D linear, mirror", G1D, host(17, 1, 1, 1, true, true, M, C, C), 0, -1.5f, 2.5f);
    test("tex3D linear, clamp", G3D, host(6, 5, 4, 1, true, false, C, C, C), 0, -1, 7);
    test("tex3D point, wrap", G3D, host(6, 5, 4, 1, false, true, W, W, W), 0, -1, 2);
    test("tex1DLayered linear", G1DL, host(11, 1, 1, 3, true, false, C, C, C), cudaArrayLayered, -1, 12);
    test("tex2DLayered point", G2DL, host(7, 9, 1, 4, false, false, C, C, C), cudaArrayLayered, -1, 10);
    test_cube(false);
    test_cube(true);
    test_pitch();
    printf("textures: %d fetches, %d mismatches\n", fetches, bad);
    return bad ? 1 : 0;
}
