# Small Triton kernels, each with one known defect, beside a control without it; captured one
# kernel at a time by tests/nvidia-kernels/capture.sh. Every kernel runs once.
import torch
import triton
import triton.language as tl


@triton.jit
def _gemm_body(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


# The same GEMM under two names, launched with num_stages=1 (no software pipelining: every
# K step waits for its own loads) and num_stages=4 (the control).
@triton.jit
def gemm_one_stage(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    _gemm_body(a, b, c, M, N, K, BM, BN, BK)


@triton.jit
def gemm_pipelined(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    _gemm_body(a, b, c, M, N, K, BM, BN, BK)


# Uncoalesced: each program reads a column block of a row-major matrix, 64 rows apart.
@triton.jit
def copy_cols(src, dst, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(src + (i % 64) * (n // 64) + i // 64)
    tl.store(dst + i, v)


@triton.jit
def copy_rows(src, dst, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(src + i)
    tl.store(dst + i, v)


def main():
    M = N = K = 4096
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((K, N), device="cuda", dtype=torch.float16)
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)
    grid = (M // 128, N // 128)
    gemm_one_stage[grid](a, b, c, M, N, K, BM=128, BN=128, BK=64, num_warps=4, num_stages=1)
    gemm_pipelined[grid](a, b, c, M, N, K, BM=128, BN=128, BK=64, num_warps=4, num_stages=4)
    n = 1 << 24
    s = torch.randn(n, device="cuda", dtype=torch.float32)
    d = torch.empty_like(s)
    copy_cols[(n // 1024,)](s, d, n, BLOCK=1024)
    copy_rows[(n // 1024,)](s, d, n, BLOCK=1024)
    torch.cuda.synchronize()
    print("defects.py: done")


if __name__ == "__main__":
    main()
