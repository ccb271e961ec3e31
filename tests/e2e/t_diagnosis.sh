# Diagnosis (docs/diagnosis.md, docs/diagnosis-review.md): on every corpus kernel the facts
# behind the advice hold (ISA register counts in the occupancy model, a limiter that binds only
# when reached, exposed stall, gains under the roofline cap), and the rank-1 finding of each
# kernel is pinned with the facts it rests on, so a regression in advice fails.
if [ -z "$CORPUS" ]; then
	echo "ok - diagnosis corpus checks # SKIP FLYPROF_CORPUS not set"
	SKIP=$((SKIP + 1))
else
	DG="$E2E_TMP/diag"
	rj() { "$JCHECK" get "$DG/$1/report.json" "$2" 2>/dev/null; }
	# gt A B: A > B as numbers
	gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; }
	# recs K: the rule ids of kernel K's recommendations, one per line
	recs() {
		local i=0 r
		while r=$(rj "$1" "recommendations.$i.rule") && [ -n "$r" ] && [ "$r" != null ]; do
			echo "$r"
			i=$((i + 1))
		done
	}
	for kdir in "$CORPUS"/*/; do
		k=$(basename "$kdir")
		fly "diagnosis: report on $k" 0 report --bundle "$kdir" --out "$DG/$k" --all --format json || continue
		# registers: the larger of the kernel resources and the ISA is what the model used
		for f in vgpr agpr; do
			isa=$(rj "$k" "occupancy.theoretical.registers.$f.isa")
			res=$(rj "$k" "occupancy.theoretical.registers.$f.resources")
			used=$(rj "$k" "occupancy.theoretical.registers.$f.used")
			want=$isa
			gt "$res" "$isa" && want=$res
			expect "$k: $f used is max(resources $res, ISA $isa)" "$used" "$want"
		done
		# the limiter binds only when the observed peak reaches it; never above it
		th=$(rj "$k" occupancy.theoretical.waves_per_simd)
		pk=$(rj "$k" occupancy.observed.per_simd.peak)
		gt "$pk" "$th" && notok "$k: observed peak $pk within theoretical $th" || ok "$k: observed peak $pk within theoretical $th"
		binding=$(rj "$k" occupancy.limiter_binding)
		if [ "$binding" = false ]; then
			bad=""
			i=0
			while c=$(rj "$k" "recommendations.$i.class") && [ -n "$c" ] && [ "$c" != null ]; do
				[ "$c" = occupancy ] && bad="$bad $(rj "$k" "recommendations.$i.rule")"
				i=$((i + 1))
			done
			expect "$k: no occupancy advice when the limiter does not bind" "$bad" ""
		fi
		# exposed stall per class, within the SIMD time
		c0=$(rj "$k" exposed_stall.classes.0.class)
		[ -n "$c0" ] && [ "$c0" != null ] && ok "$k: exposed stall per class" || notok "$k: exposed stall per class"
		gt "$(rj "$k" exposed_stall.exposed_cycles)" "$(rj "$k" exposed_stall.window_cycles)" &&
			notok "$k: exposed cycles within SIMD time" || ok "$k: exposed cycles within SIMD time"
		# no gain above the roofline cap
		cap=$(rj "$k" roofline.cap_pct)
		if [ -n "$cap" ] && [ "$cap" != null ]; then
			bad=""
			i=0
			while g=$(rj "$k" "recommendations.$i.gain.upper_bound_pct") && [ -n "$g" ] && [ "$g" != null ]; do
				gt "$g" "$cap" && bad="$bad $i"
				i=$((i + 1))
			done
			expect "$k: no gain above the roofline cap $cap" "$bad" ""
		fi
	done
	pin() { # KERNEL RULE: the rank-1 finding
		expect "$1: rank 1 is $2" "$(rj "$1" recommendations.0.rule)" "$2"
	}
	has() { recs "$1" | grep -qx "$2"; }
	pin fused_rope_cache smem_wait_amortize
	gt "$(rj fused_rope_cache isa_facts.waits.kernarg_pct)" 50 && ok "fused_rope_cache: the hot waits are on kernel arguments" || notok "fused_rope_cache: the hot waits are on kernel arguments"
	pin hgemm_splitk grid_fill_split_k
	expect "hgemm_splitk: 84 workgroups" "$(rj hgemm_splitk launch_geometry.workgroups)" "84"
	expect "hgemm_splitk: on 256 CUs" "$(rj hgemm_splitk launch_geometry.cus)" "256"
	expect "hgemm_splitk: 11 CUs of the traced SEs held a wave" "$(rj hgemm_splitk launch_geometry.cus_held_in_traced_ses)" "11"
	has hgemm_splitk occupancy_lds && notok "hgemm_splitk: no LDS-occupancy advice (the grid caps residency)" || ok "hgemm_splitk: no LDS-occupancy advice (the grid caps residency)"
	has hgemm_splitk vmem_wait_lds_dma && notok "hgemm_splitk: no use_async_copy (already LDS DMA)" || ok "hgemm_splitk: no use_async_copy (already LDS DMA)"
	has hgemm_splitk vmem_wait_pipeline && notok "hgemm_splitk: no lds_stage (0.25 loop iterations per wave)" || ok "hgemm_splitk: no lds_stage (0.25 loop iterations per wave)"
	pin layernorm smem_wait_amortize
	pin moe_gemm vmem_wait_lds_dma
	expect "moe_gemm: its loop is multi-buffered" "$(rj moe_gemm isa_facts.loop.multi_buffered)" "true"
	has moe_gemm vmem_wait_pipeline && notok "moe_gemm: no lds_stage (already multi-buffered)" || ok "moe_gemm: no lds_stage (already multi-buffered)"
	pin pa waves_idle
	expect "pa: 48 of 56 traced waves did no work" "$(rj pa wave_facts.idle_waves)/$(rj pa wave_facts.traced_waves)" "48/56"
	expect "pa: ISA VGPRs (176) in the occupancy model" "$(rj pa occupancy.theoretical.registers.vgpr.used)" "176"
	expect "pa: 2 waves per SIMD theoretical" "$(rj pa occupancy.theoretical.waves_per_simd)" "2"
	has pa smem_wait_hoist && notok "pa: no kernel-argument hoist (the waits sit in idle waves)" || ok "pa: no kernel-argument hoist (the waits sit in idle waves)"
	pin preshuffle_gemm occupancy_vgpr
	expect "preshuffle_gemm: VGPR limit reached (peak 3 of 3)" "$(rj preshuffle_gemm occupancy.observed.per_simd.peak)/$(rj preshuffle_gemm occupancy.theoretical.waves_per_simd)" "3/3"
	has preshuffle_gemm vmem_wait_pipeline && notok "preshuffle_gemm: no lds_stage (already multi-buffered)" || ok "preshuffle_gemm: no lds_stage (already multi-buffered)"
	pin quant roofline_trace_near_hbm
	has quant vmem_wait_inflight && notok "quant: no 'more loads in flight'" || ok "quant: no 'more loads in flight'"
	expect "quant: every load of a wave in one window" "$(rj quant isa_facts.loads_in_flight.window_pct_of_wave_loads)" "100"
	pin rmsnorm roofline_trace_near_hbm
	has rmsnorm vmem_wait_store && ok "rmsnorm: waits on stores named" || notok "rmsnorm: waits on stores named"
	pin softmax vmem_issue_widen
	pin topk_gating_softmax smem_wait_amortize
	has topk_gating_softmax lds_wait_crosslane && ok "topk_gating_softmax: cross-lane shuffle waits named" || notok "topk_gating_softmax: cross-lane shuffle waits named"
	pin vec_add roofline_trace_near_hbm
	expect "vec_add: the bound says near the HBM roof" "$(rj vec_add bound.roofline.verdict)" "near_hbm_roof"
	gt "$(rj vec_add roofline.pct_of_hbm_peak)" 80 && ok "vec_add: above 80% of the HBM peak" || notok "vec_add: above 80% of the HBM peak"
	rm -rf "$DG"
fi
