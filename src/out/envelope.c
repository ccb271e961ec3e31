#include "out/envelope.h"

#include <string.h>

int envelope_exit_status(const fp_err *err)
{
	return err && err->set ? err_exit_status(err->code) : 0;
}

jv *envelope_build(const char *command, const char *bundle, const jv *data, const jv *warnings,
		   const jv *truncated, const fp_err *err)
{
	jv *env = jv_object();
	int failed = err && err->set;
	jv_set_bool(env, "ok", !failed);
	jv_set(env, "command", command ? jv_str(command) : jv_null());
	if (bundle)
		jv_set_str(env, "bundle", bundle);
	if (failed) {
		jv *e = jv_set(env, "error", jv_object());
		jv_set_str(e, "code", err_name(err->code));
		jv_set_int(e, "exitCode", err_exit_status(err->code));
		jv_set_str(e, "message", err->message ? err->message : "");
		jv_set_str(e, "help", err->help ? err->help : err_default_help(err->code));
		for (size_t i = 0; err->extra && i < jv_len(err->extra); i++) {
			const char *k = jv_key_at(err->extra, i);
			if (!jv_get(e, k))
				jv_set(e, k, jv_copy(jv_value_at(err->extra, i)));
		}
	} else {
		jv_set(env, "data", data ? jv_copy(data) : jv_object());
	}
	jv_set(env, "warnings", warnings ? jv_copy(warnings) : jv_array());
	if (!failed && truncated && jv_len(truncated))
		jv_set(env, "truncated", jv_copy(truncated));
	return env;
}
