#!/bin/sh
# NRT recording across fork and exec, as for the other runtimes: a forked child that executes
# a model its parent loaded records to files of its own, its calls named (the model's and the
# tensors' names interned again in the child's image); a program that execs itself records
# each image apart, each with everything it did.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nrt.sh"
need_nrt
plan 8

neff "$T/a.neff" resnet exec_us=5000 add=3 in=image:4096 in=bias:1024 out=logits:4096
neff "$T/b.neff" bert exec_us=5000 in=tokens:2048 out=hidden:2048
APP="$APPS/nrt-threads"

# ---- fork ----------------------------------------------------------------------------------
"$INSPECT" -o "$T/fork" -- "$APP" -n 2 -f "$T/a.neff" "$T/b.neff" >"$T/fork.out" 2>"$T/fork.err"
ok $? "fork: the program runs under tprof-inspect"
grep '^{"child"' "$T/fork.out" >"$T/child.json"
grep '^{"pid"' "$T/fork.out" >"$T/parent.json"
"$DUMP" "$T/fork" >"$T/fork.dump"
pycheck "fork: two process images, the parent's and the child's" fork-images \
	"$T/fork.dump" "$T/child.json" "$T/parent.json"
pycheck "fork: the child's execution is in the child, named, on its NeuronCore, with its bytes" \
	fork-child "$T/fork.dump" "$T/child.json" "$T/parent.json"
pycheck "fork: the parent's calls stay in the parent" fork-parent \
	"$T/fork.dump" "$T/child.json" "$T/parent.json"

# ---- exec of itself --------------------------------------------------------------------------
"$INSPECT" -o "$T/exec" -- "$APP" -n 2 -x "$T/a.neff" "$T/b.neff" >"$T/exec.out" 2>"$T/exec.err"
ok $? "exec: the program runs under tprof-inspect and execs itself"
"$DUMP" "$T/exec" >"$T/exec.dump"
pycheck "exec: one process, two images, both runs whole" exec-images "$T/exec.dump" "$T/exec.out"
pycheck "exec: each image has its own runtime, models, executions and names" exec-each-image \
	"$T/exec.dump"
check "the recorder says nothing" sh -c '! grep -q "^tprof\[" "$1" "$2"' \
	sh "$T/fork.err" "$T/exec.err"
finish
