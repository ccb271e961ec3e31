# The AMD front door (issue 11): `list`, `capture`, `counters` and `run` against the stand-in
# rocprofv3 ($FAKE_DIR/rocprofv3, tests/fake/rocprofv3.c), which replays the corpus recordings.
# Every failure mode must give its typed envelope and exit status and leave no process behind.
# Scratch files live under $E2E_TMP/work (t_envelope.sh checks nothing else appears).
F="$E2E_TMP/work/front"
rm -rf "$F" && mkdir -p "$F"

# A FlyDSL worktree as far as flyprof can tell: a build tree and the June-era harnesses, plus one
# harness no recipe names (synthesized by `list`) in the domain-folder layout.
WT="$F/wt"
mkdir -p "$WT/build-fly/python_packages/flydsl/_mlir" "$WT/tests/kernels" "$WT/kernels/norm"
for k in softmax rmsnorm layernorm topk_gating_softmax quant fused_rope_cache pa hgemm_splitk \
	preshuffle_gemm moe_gemm vec_add; do
	: >"$WT/tests/kernels/test_$k.py"
done
printf 'shapes = os.environ.get("ROCDSL_NEWNORM_SHAPES", "8,8,bf16")\n' >"$WT/tests/kernels/test_newnorm.py"
: >"$WT/kernels/norm/newnorm_kernel.py"

fly "list: registry only" 0 list -f json
expect "list: registry covers the corpus kernels" "$(field data.counts.registry)" "11"
expect "list: registry origin" "$(field data.registry)" "<embedded>/recipes.json"
expect "list: no worktree, harness unknown" "$(field data.kernels.0.test_present)" "null"
fly "list: with a worktree" 0 list --worktree "$WT" -f json
expect "list: synthesized from the worktree" "$(field data.counts.worktree)" "1"
expect "list: harnesses present" "$(field data.counts.harness_present)" "12"
expect "list: synthesized name" "$(field data.kernels.11.name)" "newnorm"
expect "list: synthesized from" "$(field data.kernels.11.from)" "worktree"
expect "list: shape variable read from the harness" "$(field data.kernels.11.shape_var)" "ROCDSL_NEWNORM_SHAPES"
expect "list: kernel source in the domain layout" "$(field data.kernels.11.kernel_source)" "kernels/norm/newnorm_kernel.py"
expect "list: registry recipe has its shape env" "$(field data.kernels.0.env.0)" "ROCDSL_SOFTMAX_SHAPES=32768,8192,bf16"
fly "list: missing worktree is BAD_ARGS" 78 list --worktree "$F/nope" -f json
printf '[{"test_file": "/sgl-workspace/FlyDSL-lab/tests/kernels/test_softmax.py", "kernels": ["softmax_kernel"],
  "kernel_name_hint": "softmax_kernel (row softmax)", "invocation": "python tests/kernels/test_softmax.py",
  "shape_env": {"ROCDSL_SOFTMAX_SHAPES": "M,N,dtype format; e.g. 32768,8192,bf16"}}]\n' >"$F/hub.json"
FLYPROF_RECIPES="$F/hub.json" fly "list: a hub-format registry" 0 list --worktree "$WT" -f json
expect "list: hub recipe named from its test file" "$(field data.kernels.0.name)" "softmax"
expect "list: hub hint's first token is the pattern" "$(field data.kernels.0.kernel_regex)" "softmax_kernel"
expect "list: hub shape description is not a value" "$(field data.kernels.0.env.0)" ""
expect "list: hub absolute test path found in the worktree" "$(field data.kernels.0.test_present)" "true"
printf '{"kernels": [{"name": "x"}]}' >"$F/bad.json"
FLYPROF_RECIPES="$F/bad.json" fly "list: a recipe without invocation is BAD_INPUT" 65 list -f json
expect "list: BAD_INPUT names the registry" "$(field error.file)" "$F/bad.json"
printf '{"kernels": [' >"$F/trunc.json"
FLYPROF_RECIPES="$F/trunc.json" fly "list: truncated registry is BAD_INPUT" 65 list -f json
