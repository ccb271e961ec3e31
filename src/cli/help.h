/* Plain-text help (the only non-envelope output besides --version) and generated docs, all
 * derived from the command table, the option tables and the error registry. */
#ifndef FLYPROF_CLI_HELP_H
#define FLYPROF_CLI_HELP_H

#include "base/strbuf.h"
#include "cmd/command.h"

void help_top(strbuf *out);
void help_command(strbuf *out, const command *c);
/* docs/errors.md and docs/config.md as generated text. */
void help_errors_md(strbuf *out);
void help_config_md(strbuf *out);
/* A man page (roff) for command c, or for flyprof itself when c is NULL. */
void help_man(strbuf *out, const command *c);
/* Shell completion scripts, generated from the command and option tables. */
void help_completion_bash(strbuf *out);
void help_completion_zsh(strbuf *out);

#endif
