# SYNTHETIC SOURCE for flyprof's example bundle (scripts/make-example.sh), not a real kernel:
# it has the shape of a FlyDSL bf16 GEMM so that the synthetic trace written by bench/gen_att,
# whose instruction table points at the line numbers below, maps onto readable source lines.
# No GPU ran this file. Keep the kernel body on these line numbers (bench/gen_att_kernel.h).
import flydsl.compiler as flyc
import flydsl.expr as fx
from flydsl.expr import arith, buffer_ops, gpu

TILE_M, TILE_N, TILE_K = 64, 64, 32


@flyc.kernel(known_block_size=[256, 1, 1])
def synth_gemm_kernel(A, B, C, M: fx.Int32, N: fx.Int32, K: fx.Int32):
    tid = gpu.thread_id("x")
    a_rsrc = buffer_ops.create_buffer_resource(A)
    c_rsrc = buffer_ops.create_buffer_resource(C)
    smem = fx.SharedAllocator().allocate(fx.BFloat16, [2, TILE_M * TILE_K])
    for k, [acc] in range(0, K, TILE_K, init=[fx.zeros(fx.Float32, 16)]):
        # global memory -> registers
        a_frag = buffer_ops.buffer_load(a_rsrc, tid * 8 + k, vec_width=8)
        b_frag = fx.global_load(B, tid * 8 + k * N, vec_width=8)
        a_next = arith.addi(tid, 2048)
        # registers -> LDS, then a barrier before any wave reads the tile
        smem.store(a_frag, tid * 8)
        gpu.barrier()
        # LDS -> MFMA operands
        a_op, b_op = smem.load(tid * 8, vec_width=8), smem.load(a_next, vec_width=8)
        # 16x16x32 bf16 MFMA atoms on the accumulator tile
        mma = fx.MFMA(16, 16, 32, fx.BFloat16)
        acc = mma(a_op, b_op, acc)
        acc = mma(b_frag, b_op, acc)
        acc = arith.fma(acc, a_op, acc)
        acc = arith.addf(acc, arith.extf(fx.Float32, arith.truncf(fx.BFloat16, acc)))
    # epilogue: bf16 results to C
    out = arith.truncf(fx.BFloat16, acc)
    buffer_ops.buffer_store(out, c_rsrc, tid * 8)


@flyc.jit
def launch_synth_gemm(A, B, C, M, N, K, stream=None):
    grid = ((M // TILE_M) * (N // TILE_N), 1, 1)
    synth_gemm_kernel(A, B, C, M, N, K).launch(grid=grid, block=(256, 1, 1), stream=stream)
