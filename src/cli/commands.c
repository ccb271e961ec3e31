/* The one command table: name, entry point, capability flags, positional, options, summary.
 * It drives dispatch, --help and the generated docs. */
#include "cmd/cmds.h"

#include <string.h>

const opt_spec universal_opts[] = {
    {"format", 'f', OPT_STR, "json|table", NULL, "json|table", 1,
     "output rendering (default: table on a terminal, json otherwise)"},
    {"full", 0, OPT_FLAG, NULL, NULL, NULL, 0,
     "with -f table: every field of the envelope instead of the command's view"},
    {"compact", 0, OPT_FLAG, NULL, NULL, NULL, 0, "with -f json: the envelope on one line"},
    {"bundle", 0, OPT_STR, "DIR", NULL, NULL, 1,
     "bundle directory (state), an examples/<kernel> bundle or a raw ui_output_* dispatch "
     "directory"},
    {"worktree", 0, OPT_STR, "PATH", NULL, NULL, 1,
     "FlyDSL checkout (needs build-fly/python_packages)"},
    {"gpu", 0, OPT_INT, "N", "0", NULL, 1, "GPU index for child processes"},
    {"arch", 0, OPT_STR, "GFX", NULL, NULL, 1,
     "target architecture (gfx942, gfx950, sm_90); default: detected, else from the trace"},
    {"out", 0, OPT_STR, "DIR", NULL, NULL, 0,
     "write artifacts here instead of into the bundle (for read-only inputs)"},
    OPT_END,
};

const opt_spec profiler_opts[] = {
    {"shape", 0, OPT_STR, "M,N[,K][,dtype]", NULL, NULL, 0, "problem shape passed to the kernel"},
    {"timeout", 0, OPT_NUM, "SECONDS", "1200", NULL, 1, "deadline per profiler pass"},
    {"iter-range", 0, OPT_STR, "R", NULL, NULL, 0, "rocprofv3 kernel iteration range"},
    {"tag", 0, OPT_STR, "small|big|both", "big", "small|big|both", 0, "which shape(s) to capture"},
    {"invocation", 0, OPT_STR, "CMD", NULL, NULL, 0, "command that runs the kernel (argv words)"},
    OPT_END,
};

const opt_spec analysis_opts[] = {
    {"tag", 0, OPT_STR, "small|big", "big", "small|big", 0, "which captured shape to analyse"},
    {"dispatch", 0, OPT_STR, "ID", NULL, NULL, 0,
     "dispatch to analyse (its id or directory name); default: chosen deterministically"},
    {"top", 0, OPT_INT, "N", "10", NULL, 1, "length of ranked lists (hotspots, lines)"},
    {"all", 0, OPT_FLAG, NULL, NULL, NULL, 0, "list everything instead of the top N"},
    OPT_END,
};

const command commands[] = {
    {"list", cmd_list, CMD_RUNS_TOOLS, NULL, list_opts,
     "profilable kernels: curated recipes and those synthesizable from the worktree"},
    {"doctor", cmd_doctor, CMD_RUNS_TOOLS, NULL, doctor_opts,
     "profiler, decoder, GPU, build tree and SoC table: ready, or the list of blockers"},
    {"tile", cmd_tile, 0, "kernel", tile_opts,
     "recommend BM/BN/BK for a shape and dtype with LDS, VGPR, occupancy and roofline figures"},
    {"capture", cmd_capture, CMD_NEEDS_GPU | CMD_RUNS_TOOLS | CMD_WRITES_BUNDLE | CMD_PROFILER_OPTS,
     "kernel", capture_opts, "run the profiler: thread-trace bundle(s) and capture.json"},
    {"counters", cmd_counters,
     CMD_NEEDS_GPU | CMD_RUNS_TOOLS | CMD_WRITES_BUNDLE | CMD_PROFILER_OPTS, "kernel",
     counters_opts, "hardware counters: roofline, occupancy, L2, LDS and a bound verdict"},
    {"bubbles", cmd_bubbles, CMD_READS_BUNDLE | CMD_WRITES_BUNDLE | CMD_ANALYSIS_OPTS, NULL,
     bubbles_opts, "stall taxonomy by class, hotspots, wait attribution, occupancy"},
    {"map", cmd_map, CMD_READS_BUNDLE | CMD_WRITES_BUNDLE | CMD_ANALYSIS_OPTS, NULL, map_opts,
     "ISA <-> file.py:line with source snippets, roll-ups and flame graphs"},
    {"report", cmd_report, CMD_READS_BUNDLE | CMD_WRITES_BUNDLE | CMD_ANALYSIS_OPTS, NULL,
     report_opts, "ranked bubble -> knob recommendations, report.json and REPORT.md"},
    {"bundle", cmd_bundle, CMD_READS_BUNDLE, NULL, bundle_opts,
     "a canonical, self-contained, re-analysable examples/<kernel>/ artifact"},
    {"run", cmd_run,
     CMD_NEEDS_GPU | CMD_RUNS_TOOLS | CMD_WRITES_BUNDLE | CMD_PROFILER_OPTS | CMD_TAKES_PROGRAM,
     "kernel", run_opts, "the full pipeline on one kernel"},
    {"diff", cmd_diff, CMD_ANALYSIS_OPTS, NULL, diff_opts,
     "two bundles: per-class deltas, verdict on the targeted bubble, optional CI gate"},
    {"ledger", cmd_ledger, 0, "action", ledger_opts,
     "a task's optimisation rounds: append one, list them, or summarise what was kept"},
};

const size_t commands_count = sizeof commands / sizeof commands[0];

const command *command_find(const char *name)
{
	for (size_t i = 0; i < commands_count; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}
