#!/bin/sh
# The OTF2 renderer on scene items made by hand (unit/otf2-items): the scene's arguments as
# attributes (the model's with the archive's names and types, every other by its key and its
# type, arrays as one string, nested objects left out); a device stream's spans written in
# start order though they came out of it (one that ran before the latest, one a runtime held
# and drew later under another name, which becomes its label); a NeuronCore's overlapping
# spans on two lanes of its own group and system tree node; a category no renderer knows; a
# range's Leave with its arguments; a step, a counter, ranges across threads.  otf2-print
# must read it all without complaint, every location nested and in time order.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
plan 9

T0=1700000000000001000
"$top_builddir/tests/unit/otf2-items" "$T/a" && otf2_print "$T/a/traces.otf2" "$T/a.txt"
ok $? "the items are written, and otf2-print reads the archive without complaint"
[ -s "$T/a.txt.err" ] && diag "$(cat "$T/a.txt.err")"

pycheck_in lib-otf2 "every location: times never go back, every Enter has its Leave, properly "\
"nested" \
	nested-in-order "$T/a.txt"
pycheck "a device stream: every span at its times, in start order (the late and the held ones "\
"too)" \
	device-stream "$T/a.txt" "$T0"
pycheck "the held span keeps the name it was announced with, its drawn name is its label" \
	held-span-label "$T/a.txt"
pycheck "arguments as attributes: the model names and types, a runtime's by key and value, arrays "\
"as strings, no nested objects" \
	arguments-as-attributes "$T/a.txt"
pycheck "a NeuronCore: a lane per overlap, in an accelerator group under its system tree node" \
	neuron-core "$T/a.txt" "$T0"
pycheck "a category of its own is described by its name; the model's keep their paradigm" \
	category-regions "$T/a.txt"
pycheck "a range: its arguments on its Leave" range-on-leave "$T/a.txt"
pycheck "a step with its number, a counter, two overlapping ranges across threads on two lanes" \
	step-counter-lanes "$T/a.txt" "$T0"
finish
