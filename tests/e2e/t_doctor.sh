# `doctor` (issue #2 item 6): verdict and blockers with and without the tools, driven by the
# stand-ins in $FAKE_DIR; probes are bounded by --probe-timeout; SIGINT ends it with 130.
# Scratch files live under $E2E_TMP/work (t_envelope.sh checks nothing else appears).
D="$E2E_TMP/work/doctor"
rm -rf "$D" && mkdir -p "$D/lib" "$D/wt/build-fly/python_packages/flydsl/_mlir" "$D/empty"
: >"$D/lib/librocprof-trace-decoder.so"
nothing=(env PATH=/nonexistent LD_LIBRARY_PATH= ROCM_PATH= ROCPROF_ATT_LIBRARY_PATH=)

"${nothing[@]}" "$FLYPROF" doctor -f json >"$E2E_TMP/out.json" 2>/dev/null
expect "doctor with nothing installed exits 0" "$?" "0"
OUT="$E2E_TMP/out.json"
expect "doctor with nothing: ok" "$(field ok)" "true"
expect "doctor with nothing: not-ready" "$(field data.verdict)" "not-ready"
expect "doctor with nothing: first blocker" "$(field data.blockers.0.code)" "ROCPROFV3_MISSING"
expect "doctor with nothing: decoder blocker" "$(field data.blockers.1.code)" "DECODER_MISSING"
expect "doctor with nothing: no GPU" "$(field data.blockers.2.code)" "NO_GPU"
expect "doctor with nothing: build tree" "$(field data.blockers.3.code)" "BUILD_TREE_MISSING"
expect "doctor with nothing: ncu" "$(field data.blockers.4.code)" "NCU_MISSING"
expect "doctor with nothing: blocker exit status" "$(field data.blockers.0.exitCode)" "69"

amd=(env FLYPROF_ROCPROFV3="$FAKE_DIR/rocprofv3" FLYPROF_ROCMINFO="$FAKE_DIR/rocminfo"
	FLYPROF_DECODER_PATH="$D/lib" PATH=/nonexistent)
OUT="$E2E_TMP/out.json"
"${amd[@]}" "$FLYPROF" doctor --worktree "$D/wt" -f json >"$OUT" 2>/dev/null
expect "doctor AMD stand-ins: ready" "$(field data.verdict)" "ready"
expect "doctor AMD stand-ins: backend" "$(field data.ready_backends.0)" "amd"
expect "doctor AMD stand-ins: rocprofv3 version" "$(field data.rocprofv3.version)" "1.1.0"
expect "doctor AMD stand-ins: gpu arch" "$(field data.amd_gpus.0.arch)" "gfx950"
expect "doctor AMD stand-ins: SoC product from marketing name" "$(field data.soc.product)" "MI350X"
expect "doctor AMD stand-ins: LDS of the SoC entry" "$(field data.soc.lds_per_cu)" "163840"
expect "doctor AMD stand-ins: nvidia not ready" "$(field data.backends.nvidia.ready)" "false"

"${amd[@]}" "$FLYPROF" doctor --worktree "$D/empty" -f json >"$OUT" 2>/dev/null
expect "doctor without build tree: blocker" "$(field data.blockers.0.code)" "BUILD_TREE_MISSING"
"${amd[@]}" "$FLYPROF" doctor --worktree "$D/wt" --gpu 3 -f json >"$OUT" 2>/dev/null
expect "doctor --gpu past the count: NO_GPU" "$(field data.blockers.0.code)" "NO_GPU"
FAKE_ROCPROFV3_VERSION=0.6.0 "${amd[@]}" "$FLYPROF" doctor --worktree "$D/wt" -f json >"$OUT" 2>/dev/null
expect "doctor rocprofv3 without ATT: blocker" "$(field data.blockers.0.code)" "ROCPROFV3_MISSING"

start=$(date +%s)
FAKE_ROCPROFV3_MODE=hang "${amd[@]}" "$FLYPROF" doctor --worktree "$D/wt" --probe-timeout 0.5 -f json >"$OUT" 2>/dev/null
rc=$?
elapsed=$(($(date +%s) - start))
expect "doctor with a hung rocprofv3 still answers" "$rc" "0"
expect "doctor hung rocprofv3: blocker" "$(field data.blockers.0.code)" "ROCPROFV3_MISSING"
[ "$elapsed" -lt 5 ] && ok "doctor hung probe bounded by --probe-timeout (${elapsed}s)" ||
	notok "doctor hung probe bounded by --probe-timeout" "took ${elapsed}s"

FAKE_ROCPROFV3_MODE=hang "${amd[@]}" "$FLYPROF" doctor --probe-timeout 60 -f json >"$OUT" 2>/dev/null &
pid=$!
sleep 0.5
kill -INT "$pid"
wait "$pid"
rc=$?
expect "doctor interrupted exits 130" "$rc" "130"
expect "doctor interrupted: INTERRUPTED" "$(field error.code)" "INTERRUPTED"

nv=(env FLYPROF_NCU="$FAKE_DIR/ncu" FLYPROF_NVIDIA_SMI="$FAKE_DIR/nvidia-smi" PATH=/nonexistent)
"${nv[@]}" "$FLYPROF" doctor -f json >"$OUT" 2>/dev/null
expect "doctor NVIDIA stand-ins: ready" "$(field data.verdict)" "ready"
expect "doctor NVIDIA stand-ins: backend" "$(field data.ready_backends.0)" "nvidia"
expect "doctor NVIDIA stand-ins: no top-level blockers" "$(field data.blockers)" "[]"
expect "doctor NVIDIA stand-ins: SoC" "$(field data.soc.product)" "H200"
expect "doctor NVIDIA stand-ins: ncu version" "$(field data.ncu.version)" "2025.1.0.0"
"${nv[@]}" "$FLYPROF" doctor --arch MI355X -f json >"$OUT" 2>/dev/null
expect "doctor --arch overrides the detected SoC" "$(field data.soc.product)" "MI355X"
"${nv[@]}" "$FLYPROF" doctor --arch gfx1100 -f json >"$OUT" 2>/dev/null
expect "doctor unknown --arch: warned, not failed" "$(field data.soc.in_table)" "false"
fly "doctor --probe-timeout 0 is BAD_ARGS" 78 doctor --probe-timeout 0
rm -rf "$D"
