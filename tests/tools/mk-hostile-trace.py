#!/usr/bin/env python3
"""mk-hostile-trace.py — Chrome trace-event JSON files built to make an importer spend memory or
time on what a field names rather than on what the file holds: many distinct ids of one kind,
each with the fewest bytes.  For the import's bounds (tests/func/t-import-hostile.sh).

  mk-hostile-trace.py KIND N FILE     writes N of KIND; prints the file's size in bytes

KIND:
  tids      N threads of one process, one X event each
  pids      N processes, one X event each
  names     N events, each a name of its own (and a category of its own)
  keys      N events, each with an args key of its own
  counters  N counter events, each a series of its own
  flows     N flow starts never ended, N ends never started (distinct ids), one thread
  asyncs    N async ranges begun and never ended (distinct ids), one thread
  depth     N B events nested on one thread, never ended
  named     N thread_name metadata events, each naming a thread of its own (one has an event)
"""
import sys


def events(kind, n):
    if kind == "tids":
        for i in range(n):
            yield '{"ph":"X","name":"op","pid":1,"tid":%d,"ts":%d,"dur":1}' % (i + 1, i)
    elif kind == "pids":
        for i in range(n):
            yield '{"ph":"X","name":"op","pid":%d,"tid":1,"ts":%d,"dur":1}' % (i + 1, i)
    elif kind == "names":
        for i in range(n):
            yield '{"ph":"X","name":"n%d","cat":"c%d","pid":1,"tid":1,"ts":%d,"dur":1}' % (i, i, 2 * i)
    elif kind == "keys":
        for i in range(n):
            yield '{"ph":"X","name":"op","pid":1,"tid":1,"ts":%d,"dur":1,"args":{"k%d":1}}' % (2 * i, i)
    elif kind == "counters":
        for i in range(n):
            yield '{"ph":"C","name":"c%d","pid":1,"tid":1,"ts":%d,"args":{"v":1}}' % (i, i)
    elif kind == "flows":
        for i in range(n):
            yield '{"ph":"s","id":%d,"name":"f","pid":1,"tid":1,"ts":%d}' % (i, i)
            yield '{"ph":"f","id":%d,"name":"f","pid":1,"tid":1,"ts":%d}' % (n + i, i)
    elif kind == "asyncs":
        for i in range(n):
            yield '{"ph":"b","id":%d,"name":"a","cat":"c","pid":1,"tid":1,"ts":%d}' % (i, i)
    elif kind == "depth":
        for i in range(n):
            yield '{"ph":"B","name":"b","pid":1,"tid":1,"ts":%d}' % i
    elif kind == "named":
        for i in range(n):
            yield '{"ph":"M","name":"thread_name","pid":1,"tid":%d,"args":{"name":"t%d"}}' % (i, i)
        yield '{"ph":"X","name":"op","pid":1,"tid":0,"ts":0,"dur":1}'
    else:
        sys.exit("mk-hostile-trace.py: no kind %r" % kind)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    size = 0
    with open(path, "w") as f:
        f.write('{"traceEvents":[\n')
        first = True
        for e in events(kind, n):
            f.write(("" if first else ",\n") + e)
            first = False
        f.write("\n]}\n")
        size = f.tell()
    print(size)


if __name__ == "__main__":
    main()
