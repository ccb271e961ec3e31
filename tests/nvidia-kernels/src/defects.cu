// Small CUDA kernels, each with one known defect, beside a control without it. Built with
// nvcc -O3 -lineinfo -arch=sm_90 so Nsight Compute maps SASS to these lines; captured one
// kernel at a time (tests/nvidia-kernels/capture.sh). Every kernel runs once per launch of main.
#include <cstdio>
#include <cuda_runtime.h>

#define T 32

// Uncoalesced: neighbouring threads read 128 bytes apart, 32 sectors per warp request.
__global__ void copy_strided(const float *__restrict__ in, float *__restrict__ out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[(size_t)i * 32 % n];
}
__global__ void copy_coalesced(const float *__restrict__ in, float *__restrict__ out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i];
}

// Shared-memory bank conflicts: the column read of an unpadded 32x32 tile is 32-way.
__global__ void transpose_conflict(const float *__restrict__ in, float *__restrict__ out, int n)
{
	__shared__ float tile[T][T];
	int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
	for (int j = 0; j < T; j += 8)
		tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
	__syncthreads();
	x = blockIdx.y * T + threadIdx.x;
	y = blockIdx.x * T + threadIdx.y;
	for (int j = 0; j < T; j += 8)
		out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
__global__ void transpose_padded(const float *__restrict__ in, float *__restrict__ out, int n)
{
	__shared__ float tile[T][T + 1];
	int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
	for (int j = 0; j < T; j += 8)
		tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
	__syncthreads();
	x = blockIdx.y * T + threadIdx.x;
	y = blockIdx.x * T + threadIdx.y;
	for (int j = 0; j < T; j += 8)
		out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Occupancy limited by registers: R accumulators all live across the sweep.
template <int R> __device__ float sweep(float x)
{
	float acc[R];
#pragma unroll
	for (int k = 0; k < R; k++)
		acc[k] = x * (k + 1);
	for (int it = 0; it < 64; it++) {
		float first = acc[0];
#pragma unroll
		for (int k = 0; k < R - 1; k++)
			acc[k] = fmaf(acc[k], acc[k + 1], 0.5f);
		acc[R - 1] = fmaf(acc[R - 1], first, 0.5f);
	}
	float s = 0.f;
#pragma unroll
	for (int k = 0; k < R; k++)
		s += acc[k];
	return s;
}
__global__ void regs_heavy(const float *__restrict__ in, float *__restrict__ out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = sweep<160>(in[i]);
}
__global__ void regs_light(const float *__restrict__ in, float *__restrict__ out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = sweep<24>(in[i]);
}

// Grid too small: 4 blocks on a 132-SM GPU, grid-stride loop does all the work.
__global__ void saxpy_grid(const float *__restrict__ x, float *__restrict__ y, int n, float a)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		y[i] = a * x[i] + y[i];
}

// Divergence: odd and even lanes of one warp take different long paths.
__global__ void branch_divergent(const float *__restrict__ in, float *__restrict__ out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = in[i % n];
	if (threadIdx.x & 1) {
		for (int k = 0; k < 64; k++)
			v = __sinf(v) * 1.0001f + 0.1f;
	} else {
		for (int k = 0; k < 64; k++)
			v = __cosf(v) * 0.9999f - 0.1f;
	}
	if (i < n)
		out[i] = v;
}
__global__ void branch_uniform(const float *__restrict__ in, float *__restrict__ out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = in[i % n];
	if ((threadIdx.x >> 5) & 1) {
		for (int k = 0; k < 64; k++)
			v = __sinf(v) * 1.0001f + 0.1f;
	} else {
		for (int k = 0; k < 64; k++)
			v = __cosf(v) * 0.9999f - 0.1f;
	}
	if (i < n)
		out[i] = v;
}

// Local memory: a per-thread array indexed by data cannot live in registers.
__global__ void local_indexed(const int *__restrict__ idx, const float *__restrict__ in, float *__restrict__ out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float buf[64];
	for (int k = 0; k < 64; k++)
		buf[k] = in[(i + k) % n];
	float s = 0.f;
	for (int k = 0; k < 64; k++)
		s += buf[idx[(i + k) % n] & 63];
	if (i < n)
		out[i] = s;
}
__global__ void local_static(const int *__restrict__ idx, const float *__restrict__ in, float *__restrict__ out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float s = 0.f;
	for (int k = 0; k < 64; k++)
		s += in[(i + k) % n] * (float)(idx[(i + k) % n] & 63);
	if (i < n)
		out[i] = s;
}

// Atomics contention: every thread adds to one address; the control reduces in the warp first.
__global__ void sum_atomic_hot(const float *__restrict__ in, float *sum, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(sum, in[i]);
}
__global__ void sum_atomic_warp(const float *__restrict__ in, float *sum, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = i < n ? in[i] : 0.f;
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	if ((threadIdx.x & 31) == 0)
		atomicAdd(sum, v);
}

#define CK(x)                                                                                      \
	do {                                                                                       \
		cudaError_t e_ = (x);                                                              \
		if (e_ != cudaSuccess) {                                                           \
			fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                   \
			return 1;                                                                  \
		}                                                                                  \
	} while (0)

int main(void)
{
	const int n = 1 << 24, tn = 4096, b = 256, g = (n + b - 1) / b;
	float *x, *y, *s;
	int *idx;
	CK(cudaMalloc(&x, n * sizeof(float)));
	CK(cudaMalloc(&y, n * sizeof(float)));
	CK(cudaMalloc(&s, sizeof(float)));
	CK(cudaMalloc(&idx, n * sizeof(int)));
	CK(cudaMemset(x, 0, n * sizeof(float)));
	CK(cudaMemset(y, 0, n * sizeof(float)));
	CK(cudaMemset(idx, 0x17, n * sizeof(int)));
	copy_strided<<<g, b>>>(x, y, n);
	copy_coalesced<<<g, b>>>(x, y, n);
	dim3 tb(T, 8), tg(tn / T, tn / T);
	transpose_conflict<<<tg, tb>>>(x, y, tn);
	transpose_padded<<<tg, tb>>>(x, y, tn);
	regs_heavy<<<g / 16, b>>>(x, y, n / 16);
	regs_light<<<g / 16, b>>>(x, y, n / 16);
	saxpy_grid<<<4, b>>>(x, y, n, 2.f);
	saxpy_grid<<<132 * 8, b>>>(x, y, n, 2.f);
	branch_divergent<<<g / 4, b>>>(x, y, n / 4);
	branch_uniform<<<g / 4, b>>>(x, y, n / 4);
	local_indexed<<<g / 16, b>>>(idx, x, y, n / 16);
	local_static<<<g / 16, b>>>(idx, x, y, n / 16);
	sum_atomic_hot<<<g, b>>>(x, s, n);
	sum_atomic_warp<<<g, b>>>(x, s, n);
	CK(cudaGetLastError());
	CK(cudaDeviceSynchronize());
	printf("defects: done\n");
	return 0;
}
