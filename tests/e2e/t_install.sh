# make install into a temporary prefix: a working binary, one man page per command listing the
# options --help lists, and bash/zsh completion generated from the same command table.
inst="$E2E_TMP/prefix"
rm -rf "$inst"
if make -s -C "$ROOT" BUILD="${BUILD_DIR#"$ROOT"/}" install PREFIX="$inst" >"$E2E_TMP/install.log" 2>&1; then
	ok "install: make install PREFIX=tmp"
else
	notok "install: make install PREFIX=tmp" "$(tail -20 "$E2E_TMP/install.log")"
fi
expect "install: installed binary runs" "$("$inst/bin/flyprof" --version | cut -d' ' -f1)" "flyprof"
expect "install: --version names the commit" \
	"$("$inst/bin/flyprof" --version | grep -cE '\(commit [0-9a-f]{7,}(-dirty)?|\(commit unknown')" 1
cmds=$("$FLYPROF" --command-names)
help_cmds=$("$FLYPROF" --help | sed -n '/^commands:/,/^$/p' | awk 'NF>1 {print $1}')
expect "install: command list equals --help's" "$(echo $cmds)" "$(echo $help_cmds)"
missing=""
for c in $cmds; do
	page="$inst/share/man/man1/flyprof-$c.1"
	[ -s "$page" ] || { missing="$missing $c(no page)"; continue; }
	for o in $("$FLYPROF" "$c" --help | grep -oE '^  (-[a-z], )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+'); do
		esc=$(sed 's/-/\\-/g' <<<"${o#--}")
		grep -qF -- "\\fB\\-\\-$esc\\fR" "$page" || missing="$missing $c:$o"
	done
done
expect "install: a man page per command with every option of its --help" "$missing" ""
[ -s "$inst/share/man/man1/flyprof.1" ] && ok "install: flyprof(1)" || notok "install: flyprof(1)"
if command -v groff >/dev/null; then
	warn=$(for p in "$inst"/share/man/man1/*.1; do groff -man -Tutf8 -ww -z "$p" 2>&1; done)
	expect "install: man pages render without groff warnings" "$warn" ""
fi
comp="$inst/share/bash-completion/completions/flyprof"
got=$(bash -c 'source "$1"; COMP_WORDS=(flyprof rep); COMP_CWORD=1; _flyprof; echo "${COMPREPLY[*]}"' _ "$comp")
expect "install: bash completes a command" "$got" "report"
got=$(bash -c 'source "$1"; COMP_WORDS=(flyprof map --speed); COMP_CWORD=2; _flyprof; echo "${COMPREPLY[*]}"' _ "$comp")
expect "install: bash completes a command's option" "$got" "--speedscope"
nopts=0
for c in $cmds; do
	n=$(bash -c 'source "$1"; COMP_WORDS=(flyprof "$2" --); COMP_CWORD=2; _flyprof; echo "${#COMPREPLY[@]}"' _ "$comp" "$c")
	h=$("$FLYPROF" "$c" --help | grep -oE '^  (-[a-z], )?--[a-z0-9-]+' | wc -l)
	[ "$n" = "$h" ] || nopts=$((nopts + 1))
done
expect "install: bash offers exactly each command's options" "$nopts" 0
zc="$inst/share/zsh/site-functions/_flyprof"
missing=""
for c in $cmds; do grep -q "^	$c) opts=" "$zc" || missing="$missing zsh:$c"; done
expect "install: zsh completion names every command" "$missing" ""
if command -v zsh >/dev/null; then
	zsh -n "$zc" && ok "install: zsh completion parses" || notok "install: zsh completion parses"
fi
rm -rf "$inst"
