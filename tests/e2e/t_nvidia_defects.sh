# The NVIDIA defect/control set (tests/nvidia-kernels: our own kernels, captured with ncu on
# the H200, exports committed): for each defect, `report` puts the finding that names its fix
# at rank 1 or 2, on the .cu/.py line of the defect; the control kernel does not get it.
NK="$ROOT/tests/nvidia-kernels/cases"

# rules_list: the rules of every recommendation in the last envelope, one per line.
rules_list() {
	local i=0 r
	while r=$(field "data.recommendations.$i.rule") && [ "$r" != null ] && [ -n "$r" ]; do
		echo "$r"
		i=$((i + 1))
	done
}

# defect CASE RULE LINE CONTROL: RULE at rank 1 or 2 of CASE, on source LINE; not in CONTROL.
defect() {
	local c=$1 rule=$2 line=$3 ctl=$4 top k src=""
	fly "nvidia defects: report on $c" 0 report --bundle "$NK/$c" --out "$E2E_TMP/nk-$c" --all ||
		return
	top=$(rules_list | head -2)
	if grep -qx "$rule" <<<"$top"; then
		ok "nvidia defects: $c: $rule at rank 1 or 2"
	else
		notok "nvidia defects: $c: $rule at rank 1 or 2" "top two: $top"
	fi
	for k in 0 1; do
		[ "$(field "data.recommendations.$k.rule")" = "$rule" ] &&
			src=$(field "data.recommendations.$k.source")
	done
	expect "nvidia defects: $c: the finding names $line" "$src" "$line"
	fly "nvidia defects: report on $ctl" 0 report --bundle "$NK/$ctl" --out "$E2E_TMP/nk-$ctl" \
		--all || return
	if rules_list | grep -qx "$rule"; then
		notok "nvidia defects: control $ctl does not get $rule"
	else
		ok "nvidia defects: control $ctl does not get $rule"
	fi
	rm -rf "$E2E_TMP/nk-$c" "$E2E_TMP/nk-$ctl"
}

CU=/src/nvk/defects.cu
PY=/src/nvk/defects.py
defect cu_copy_strided ncu_uncoalesced_global "$CU:14" cu_copy_coalesced
defect cu_transpose_conflict ncu_shared_bank_conflicts "$CU:34" cu_transpose_padded
defect cu_branch_divergent ncu_divergence "$CU:94" cu_branch_uniform
defect cu_local_indexed ncu_local_memory "$CU:125" cu_local_static
defect cu_regs_heavy ncu_occupancy_registers "$CU:69" cu_regs_light
defect cu_saxpy_small_grid ncu_grid_too_small "$CU:83" cu_saxpy_full_grid
defect tr_copy_cols ncu_uncoalesced_global "$PY:39" tr_copy_rows
defect tr_gemm_one_stage ncu_no_software_pipelining "$PY:17" tr_gemm_pipelined

# what ncu's own rules said is carried through: every rule result of 5% or more is listed,
# the ones a finding covers name it
fly "nvidia defects: report keeps ncu's rules" 0 report --bundle "$NK/cu_transpose_conflict" \
	--out "$E2E_TMP/nk-rules"
n=$("$JCHECK" get "$E2E_TMP/nk-rules/report.json" ncu_rules.0.rule)
[ "$n" != null ] && ok "nvidia defects: ncu_rules listed" || notok "nvidia defects: ncu_rules listed"
grep -q '"finding": "shared_bank_conflicts"' "$E2E_TMP/nk-rules/report.json" &&
	ok "nvidia defects: UncoalescedSharedAccess covered by the finding" ||
	notok "nvidia defects: UncoalescedSharedAccess covered by the finding"
grep -q '"L1 Conflicts Shared N-Way"' "$E2E_TMP/nk-rules/report.json" &&
	ok "nvidia defects: the finding carries its facts" ||
	notok "nvidia defects: the finding carries its facts"
rm -rf "$E2E_TMP/nk-rules"
