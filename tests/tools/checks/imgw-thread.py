"""imgw-thread.py — the checks of func/t-imgw-thread.sh on what tools/dump-records read of two
images (one JSON record a line): one written by a thread of its own, one on one thread."""
import json

from checklib import fail, main


def _records(path):
    """The records of a dump, each as sorted JSON text, without the image it came from."""
    out = []
    for line in open(path):
        r = json.loads(line)
        r.pop("image", None)
        out.append(json.dumps(r, sort_keys=True))
    return out


def same_records(thread_dump, plain_dump):
    """The same records in the same order, 300000 marks."""
    a, b = _records(thread_dump), _records(plain_dump)
    marks = sum(1 for line in a if "\"kind\": \"mark\"" in line)
    if a != b or marks != 300000:
        fail("%d and %d records, %d marks" % (len(a), len(b), marks))


main(globals())
