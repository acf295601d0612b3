#!/bin/sh
# The documentation says what the programs do: the man pages render without a warning and
# close every block they open (an unclosed example swallowed the text after it once), every
# variable the recorder reads is in the README's table and in tprof-inspect(1), every long
# option of each --help is in its man page, -V works for both commands, and every SQLite view
# the writer makes is listed in the README, the man page and sqlite-schema.md, and DESIGN.md's
# map of the source names every folder.
. "$(dirname "$0")/lib.sh"
plan 9
src=$top_srcdir

bad=""
for m in "$src"/docs/*.1 "$src"/docs/*.7; do
	w=$(groff -man -Tutf8 -ww -z "$m" 2>&1)
	nf=$(grep -c '^\.nf' "$m")
	fi=$(grep -c '^\.fi' "$m")
	rs=$(grep -c '^\.RS' "$m")
	re=$(grep -c '^\.RE' "$m")
	[ -z "$w" ] && [ "$nf" -eq "$fi" ] && [ "$rs" -eq "$re" ] ||
		bad="$bad $(basename "$m") (.nf $nf/.fi $fi, .RS $rs/.RE $re, groff: $(echo "$w" | head -1))"
done
[ -z "$bad" ]
ok $? "the man pages render without a warning, every .nf and .RS closed"
[ -z "$bad" ] || diag "$bad"

# The variables: those the recorder and the sampler read (getenv), but the tests' own, and the
# API filters of the domains that have them (common/domains.h: its lines whose `filtered`
# field, the one before the last, is 1).
filters=$(sed -n 's/^[[:space:]]*X(\([A-Z0-9]*\), .*, 1, [01])[[:space:]\\]*$/TPROF_\1_API_FILTER/p' \
	"$src/common/domains.h")
vars=$({ cat "$src"/preload/*.c "$src"/preload/*/*.c "$src"/sample/*.c "$src"/cli/*.c "$src"/common/*.c |
	grep -oE '"TPROF_[A-Z0-9_]+"' | tr -d '"'
	for f in $filters; do echo "$f" "${f}_OUT"; done | tr ' ' '\n'; } | grep -v '^TPROF_TEST_' | sort -u)
[ "$(echo "$vars" | wc -l)" -gt 20 ] && [ "$(echo "$filters" | wc -w)" -eq 4 ]
ok $? "the variables are found in the sources ($(echo "$vars" | wc -l), the filters of $(echo "$filters" | wc -w) domains)"
missing=""
for v in $vars; do
	grep -q "^| \`$v\`" "$src/README.md" || grep -q "^| \`${v}_OUT\`\|^| \`${v%_OUT}\`" "$src/README.md" ||
		missing="$missing $v"
done
ok_none_missing "$missing" "each is a row of the README's variable table" "not in the README's table"
missing=""
for v in $vars; do
	grep -q "^\.BR* $v\b" "$src/docs/tprof-inspect.1" || missing="$missing $v"
done
ok_none_missing "$missing" "each is described in tprof-inspect(1)" "not in tprof-inspect.1"

# --help against the man pages.
for prog in inspect analyze; do
	eval "bin=\$$(echo "$prog" | tr a-z A-Z)"
	missing=""
	for o in $("$bin" --help | grep -oE '(^|[ ,])--[a-z][a-z0-9-]*' | tr -d ' ,' | sort -u); do
		grep -q -- "$(echo "$o" | sed 's/-/\\\\-/g')" "$src/docs/tprof-$prog.1" || missing="$missing $o"
	done
	ok_none_missing "$missing" "tprof-$prog: every long option of --help is in its man page"
done

"$INSPECT" -V | grep -q '^tprof-inspect (tprof) [0-9]' && "$ANALYZE" -V | grep -q '^tprof-analyze (tprof) [0-9]'
ok $? "-V prints the version, for both commands"

views=$(grep -rhoE 'CREATE VIEW [a-z_]+' "$src"/analyze/render/sqlite/ | awk '{print $3}' | sort -u)
missing=""
for v in $views; do
	grep -q "\`$v\`" "$src/README.md" || missing="$missing README:$v"
	grep -q "^\.BR* $v\b" "$src/docs/tprof-analyze.1" || missing="$missing man:$v"
	grep -q "^| \`$v\`" "$src/docs/sqlite-schema.md" || missing="$missing schema:$v"
done
[ -n "$views" ] || missing="no CREATE VIEW found in analyze/render/sqlite"
ok_none_missing "$missing" \
	"each of the $(echo "$views" | wc -w) SQLite views is listed in the README, the man page and the schema"

# docs/DESIGN.md's map names every folder of sources (its "Parts and layering" block).
map=$(sed -n '/^## Parts and layering/,/^Every arrow points down/p' "$src/docs/DESIGN.md")
missing=""
for d in $(cd "$src" && find analyze preload common cli api sample ebpf python include tests bench \
	scripts examples docs -type f \( -name '*.c' -o -name '*.h' -o -name '*.py' -o -name '*.sh' \) |
	sed 's|/[^/]*$||' | grep -v '^tests/.*/' | sort -u); do
	base=${d##*/}
	echo "$map" | grep -qE "(^| |/)$base/" || missing="$missing $d"
done
ok_none_missing "$missing" "DESIGN.md's map names every folder of sources"
finish
