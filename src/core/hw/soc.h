/* SoC tables: the per-architecture and per-product hardware numbers used by the occupancy,
 * tile and roofline models. The numbers live in data/soc.json (embedded; FLYPROF_DATA_DIR may
 * override it), each with a "ref" naming the anchor that holds it (docs/facts-hardware.md,
 * docs/facts-nvidia.md).
 *
 * The table is expanded into one soc_spec per (architecture, product) pair: "gfx950" alone
 * selects the entry's default product (MI350X), "MI355X" selects that product of gfx950.
 * Lookup is case-insensitive and ignores target-id features ("gfx942:sramecc+:xnack-").
 *
 * Ownership: a soc_table owns every soc_spec and string in it; pointers returned by lookups
 * are borrowed and live until soc_table_free. Failure: malformed tables are BAD_RULES with
 * the file name and, for JSON syntax errors, the byte offset (BAD_INPUT from the parser is
 * re-labelled BAD_RULES because soc.json is our own data, not a trace). */
#ifndef FLYPROF_CORE_SOC_H
#define FLYPROF_CORE_SOC_H

#include "base/err.h"
#include "base/json/jv.h"

#include <stddef.h>
#include <stdint.h>

enum soc_vendor { SOC_AMD, SOC_NVIDIA };

#define SOC_MAX_RATES	    12
#define SOC_MAX_SGPR_LIMITS 8

/* A dense peak rate: FLOP per CU (SM) per clock for one dtype, at clock_mhz (the product's
 * clock unless the table names another one for this rate, as for H100 FP64). */
typedef struct soc_rate {
	const char *dtype; /* canonical dtype name ("bf16", "fp8", ...) */
	double flops_per_cu_clk;
	double clock_mhz;
	/* K of the smallest matrix instruction shape that reaches this rate (16x16xK; on gfx950
	 * the CDNA3-era shapes run at half rate, docs/facts-hardware.md#mfma-shapes), 0 when not
	 * modelled. */
	int peak_k;
	const char *ref;
} soc_rate;

typedef struct soc_spec {
	const char *arch;    /* "gfx942", "gfx950", "sm_90" */
	const char *product; /* "MI300X", "MI350X", "H200", ... */
	const char *family;  /* "CDNA3", "CDNA4", "Hopper" */
	enum soc_vendor vendor;
	int is_default; /* the product an arch-name lookup returns */

	/* Per CU (AMD) / per SM (NVIDIA). */
	int wave_size, simds_per_cu, max_waves_per_simd, max_waves_per_cu;
	int max_wg_size, max_wgs_per_cu;
	/* AMD register file: per lane, unified arch VGPR + AGPR (docs/facts-hardware.md#vgprs). 0
	 * on NVIDIA. */
	int vgprs_per_lane, max_arch_vgprs, max_agprs, vgpr_granule, agpr_align;
	int max_sgprs_per_wave, sgpr_granule;
	/* GFX9 SGPR rule: a wave using <= sgpr_limit[i][0] SGPRs allows sgpr_limit[i][1] waves per
	 * SIMD (ascending thresholds). */
	int sgpr_limit[SOC_MAX_SGPR_LIMITS][2];
	int n_sgpr_limits;
	/* NVIDIA register file: registers per SM, allocation unit per warp, max per thread. */
	int regs_per_cu, reg_alloc_unit, max_regs_per_thread;

	int64_t lds_per_cu, lds_max_per_wg, lds_granule, lds_reserved_per_wg;
	int lds_banks, lds_bank_bytes;
	int64_t l2_bytes, mall_bytes;

	/* Product figures. */
	int cus, xcds;
	double clock_mhz;
	int64_t hbm_bytes;
	double hbm_tbps; /* 10^12 B/s */

	soc_rate matrix[SOC_MAX_RATES];
	size_t n_matrix;
	soc_rate vector[SOC_MAX_RATES];
	size_t n_vector;

	const jv *arch_entry;	 /* borrowed from the table: the arch object of soc.json */
	const jv *product_entry; /* borrowed: the product object */
} soc_spec;

typedef struct soc_table soc_table;

/* Loads data/soc.json through data_load and validates it. NULL with e filled on failure. */
soc_table *soc_table_load(fp_err *e);
/* Parses and validates a table from memory (`name` is used in errors). */
soc_table *soc_table_parse(const char *buf, size_t len, const char *name, fp_err *e);
void soc_table_free(soc_table *t);

size_t soc_count(const soc_table *t);
const soc_spec *soc_at(const soc_table *t, size_t i);
/* Where the table came from ("<embedded>/soc.json" or a FLYPROF_DATA_DIR path). */
const char *soc_origin(const soc_table *t);

/* Finds a spec by arch ("gfx950", "gfx950:xnack-", "sm_90", "gfx95"), product ("MI355X",
 * "h100") or alias, case-insensitively. NULL if unknown. */
const soc_spec *soc_lookup(const soc_table *t, const char *name);
/* As soc_lookup, but an unknown name is BAD_ARGS with error.available listing the names. */
const soc_spec *soc_find(const soc_table *t, const char *name, fp_err *e);
/* Array of the accepted names (archs and products), owned by the caller. */
jv *soc_names(const soc_table *t);

/* The rate for a canonical dtype, or NULL when the SoC has no such unit (e.g. tf32 on
 * gfx950: it has no XF32 MFMA). */
const soc_rate *soc_matrix_rate(const soc_spec *s, const char *dtype);
const soc_rate *soc_vector_rate(const soc_spec *s, const char *dtype);
/* Dense peak in FLOP/s of a rate on this product: cus x clock x rate. */
double soc_peak_flops(const soc_spec *s, const soc_rate *r);
/* Peak HBM bandwidth in B/s. */
double soc_hbm_bytes_per_s(const soc_spec *s);
/* Ridge point (FLOP per HBM byte) of a rate; 0 when bandwidth is unknown. */
double soc_ridge(const soc_spec *s, const soc_rate *r);
/* The "ref" string of a numeric field of the arch or product entry (e.g. "lds_granule",
 * "cus"), or NULL. */
const char *soc_ref(const soc_spec *s, const char *field);
/* A summary object of the spec (arch, product, CUs, LDS, clocks, bandwidth) for envelopes. */
jv *soc_to_json(const soc_spec *s);

#endif
