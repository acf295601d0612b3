# lib-otf2.sh — sourced by the OTF2 tests after lib.sh: otf2-print (found by configure).
OTF2PRINT="${OTF2_PRINT:-no}"
[ "$OTF2PRINT" != no ] && [ -x "$OTF2PRINT" ] ||
	skip_all "otf2-print not found (configure looks for it; on Debian: apt-get install otf2-tools)"

# otf2_print ARCHIVE OUT: the events (OUT) and global definitions (OUT.defs) as otf2-print
# prints them; fails when otf2-print fails or warns about anything (OUT.err holds what it
# said).
otf2_print() {
	"$OTF2PRINT" "$1" >"$2" 2>"$2.err" && "$OTF2PRINT" -G "$1" >"$2.defs" 2>>"$2.err" &&
		! grep -q . "$2.err"
}

# The Python readers of otf2-print's output (events, defs, nesting, regions, device_spans,
# name, loc_what) are in tests/tools/checks/lib-otf2.py: a test's checker imports them, and
# the checks several tests make are run with `pycheck_in lib-otf2 ...`:
#   nested-in-order OUT            every location keeps time order and nests Enter/Leave
#   device-spans-match OUT CHROME  the regions of the accelerator streams follow one another
#                                  and are the device spans of the Chrome trace
