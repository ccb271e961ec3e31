# `tile` (issue #2 item 7): LDS/occupancy figures agree with docs/facts-hardware.md, typed
# errors for bad shapes/dtypes/archs, and tile.json written only into --out or a flyprof bundle.
T="$E2E_TMP/work/tile"
rm -rf "$T" && mkdir -p "$T"
cd "$T" || exit 1
fly "tile gfx950 bf16 4096^3" 0 tile --shape 4096,4096,4096 --dtype bf16 --arch gfx950 -f json
expect "tile: recommended tile" "$(field data.recommended.tile.BM)x$(field data.recommended.tile.BN)x$(field data.recommended.tile.BK)" "128x256x32"
expect "tile: LDS bytes (128*32+32*256)*2*2" "$(field data.recommended.lds.bytes)" "49152"
expect "tile: LDS rounded to 1280 B granules" "$(field data.recommended.lds.allocated_bytes)" "49920"
expect "tile: waves per CU" "$(field data.recommended.occupancy.waves_per_cu)" "12"
expect "tile: limiter named" "$(field data.recommended.occupancy.limiter)" "vgpr"
expect "tile: LDS tied" "$(field data.recommended.occupancy.tied_with.0)" "lds"
expect "tile: ridge" "$(field data.soc.ridge_flop_per_byte)" "288.36"
expect "tile: nothing written without --bundle/--out" "$(ls -A "$T")" ""

fly "tile fixed 128x128x64" 0 tile --shape 4096,4096,4096 --dtype bf16 --arch gfx950 --bm 128 --bn 128 --bk 64 -f json
expect "tile fixed: LDS allocation 52 x 1280" "$(field data.evaluated.lds.allocated_bytes)" "66560"
expect "tile fixed: LDS-bound at 2 WGs" "$(field data.evaluated.occupancy.wgs_per_cu)" "2"
expect "tile fixed: limiter" "$(field data.evaluated.occupancy.limiter)" "lds"
fly "tile fixed on gfx942" 0 tile --shape 4096,4096,4096 --dtype f16 --arch MI300X --bm 128 --bn 128 --bk 64 -f json
expect "tile gfx942: one WG of 64 KiB" "$(field data.evaluated.occupancy.waves_per_cu)" "4"
expect "tile gfx942: fp16 canonical" "$(field data.problem.dtype)" "fp16"
fly "tile dtype in --shape" 0 tile --shape 8192x8192x1024,e4m3 --arch gfx950 -f json
expect "tile fp8 from the shape" "$(field data.problem.dtype)" "fp8"
expect "tile fp8 output defaults to bf16" "$(field data.problem.out_dtype)" "bf16"
expect "tile fp8 gfx950 BK >= 128" "$(field data.recommended.tile.BK)" "128"
fly "tile without --arch warns" 0 tile -f json
expect "tile without --arch: warning" "$(field warnings.0)" "no --arch given: assuming gfx950 (MI350X)"

fly "tile unknown dtype" 78 tile --dtype fp12 --arch gfx950 -f json
expect "tile unknown dtype lists dtypes" "$(field error.available.0)" "fp64"
fly "tile tf32 on gfx950" 78 tile --dtype tf32 --arch gfx950 -f json
fly "tile malformed shape" 78 tile --shape 4096,abc --arch gfx950 -f json
fly "tile one dimension" 78 tile --shape 4096 --arch gfx950 -f json
fly "tile dtype conflict" 78 tile --shape 64,64,64,bf16 --dtype fp8 --arch gfx950 -f json
fly "tile unknown arch" 78 tile --arch gfx1100 -f json
expect "tile unknown arch lists SoCs" "$(field error.available.0)" "gfx942"
fly "tile bad --bm" 78 tile --bm 0 --arch gfx950 -f json

fly "tile --out writes tile.json" 0 tile --arch gfx950 --shape 1024,1024,1024 --out "$T/o" -f json
[ -f "$T/o/tile.json" ] && [ -f "$T/o/manifest.json" ] && ok "tile --out: tile.json and manifest" || notok "tile --out: tile.json and manifest"
fly "tile --bundle new dir" 0 tile --arch gfx950 --bundle "$T/b" -f json
[ -f "$T/b/tile.json" ] && ok "tile --bundle: tile.json" || notok "tile --bundle: tile.json"
if [ -n "$CORPUS" ]; then
	raw=$(ls -d "$CORPUS"/hgemm_splitk/att/big/ui_output_* | head -n 1)
	fly "tile --bundle on a raw dispatch" 0 tile --arch gfx950 --bundle "$raw" -f json
	expect "tile raw dispatch: warned, not written" "$(field warnings.0 | cut -c1-22)" "tile.json not written:"
fi
mkdir -p "$T/foreign" && : >"$T/foreign/x.txt"
fly "tile --out on a foreign dir" 78 tile --arch gfx950 --out "$T/foreign" -f json
expect "tile foreign: NOT_A_BUNDLE" "$(field error.code)" "NOT_A_BUNDLE"
cd "$ROOT" || exit 1
rm -rf "$T"
