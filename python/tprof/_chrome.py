# _chrome.py — copies a Chrome trace as PyTorch exports it into the form tprof-analyze reads:
# one JSON object, "tprof" first (who wrote it: host, process, thread), then the events, each
# passed through a function that may change it.  Streamed: one event at a time is held, never
# the whole trace, which PyTorch already holds in memory.
#
# PyTorch exports one of two forms.  Its own profiler (no Kineto, as Debian's 1.13 is built)
# writes a bare array, each event {"name": "NAME", "ph": ..., "ts": ..., ...} with NAME put
# between the quotes as it is, unescaped: a name with a quote or a backslash makes the file
# invalid JSON, or silently another name.  So in that form the name is taken as the raw text
# up to '", "ph": "' and the rest of the event is read as JSON.  Kineto writes an object with
# "traceEvents" among other keys; those keys are copied, the events read as JSON.
#
# The file written is private, as the recorder's profiles are (it holds the program's
# paths): created new, never through a link, 0600 (0640 with TPROF_GROUP_READABLE=1).
import json
import os

CHUNK = 1 << 18          # characters read at a time
_decoder = json.JSONDecoder()
_NAME_HEAD = '{"name": "'
_NAME_END = '", "ph": "'


class _Reader:
    """JSON values read one at a time from a text file."""

    def __init__(self, f):
        self.f = f
        self.buf = ""
        self.pos = 0
        self.eof = False

    def _more(self):
        data = self.f.read(CHUNK)
        if not data:
            self.eof = True
            return False
        self.buf = self.buf[self.pos:] + data
        self.pos = 0
        return True

    def peek(self):
        """The next character that is not white space, "" at the end."""
        while True:
            n = len(self.buf)
            while self.pos < n and self.buf[self.pos] in " \t\r\n":
                self.pos += 1
            if self.pos < n:
                return self.buf[self.pos]
            if not self._more():
                return ""

    def expect(self, c):
        if self.peek() != c:
            raise ValueError("expected %r at offset %d of the chunk" % (c, self.pos))
        self.pos += 1

    def value(self, parse=None):
        """The next value, by parse(buf, pos) -> (value, end) or by the JSON decoder.  A value
        that runs to the end of what was read may go on: it is read again with more."""
        self.peek()
        while True:
            try:
                v, end = (parse or _decoder.raw_decode)(self.buf, self.pos)
                if end < len(self.buf) or self.eof:
                    self.pos = end
                    return v
            except ValueError:
                if self.eof:
                    raise
            self._more()


def _raw_named(buf, pos):
    """An event of PyTorch's own writer: its name raw, the rest JSON."""
    if not buf.startswith(_NAME_HEAD, pos):
        return _decoder.raw_decode(buf, pos)
    i = buf.find(_NAME_END, pos + len(_NAME_HEAD))
    if i < 0:
        raise ValueError("an event without \"ph\" after its name")
    name = buf[pos + len(_NAME_HEAD):i]
    rest, used = _object_from(buf, i + 3)
    event = {"name": name}
    event.update(rest)
    return event, i + 3 + used


def _object_from(buf, at):
    """The members of an object from buf[at] (after a comma) to its closing brace, and how
    many characters they took.  Tried on a slice that grows, as the members are short."""
    size = 1024
    while True:
        text = "{" + buf[at:at + size]
        try:
            obj, end = _decoder.raw_decode(text)
            return obj, end - 1
        except ValueError:
            if at + size >= len(buf):
                raise
            size *= 4


def _events(reader, parse, fix, out):
    """Copies the array of events at the reader to out, each through fix; returns how many."""
    reader.expect("[")
    out.write("[")
    n = 0
    if reader.peek() == "]":
        reader.pos += 1
    else:
        while True:
            event = reader.value(parse)
            if not isinstance(event, dict):
                raise ValueError("an event that is not an object: %.40r" % (event,))
            out.write(",\n" if n else "\n")
            out.write(json.dumps(fix(event), separators=(",", ":")))
            n += 1
            c = reader.peek()
            reader.pos += 1
            if c == "]":
                break
            if c != ",":
                raise ValueError("expected ',' or ']' between events, found %r" % c)
    out.write("\n]")
    return n


def _object(reader, fix, out):
    """Kineto's form: every key copied, "traceEvents" streamed, a "tprof" of its own dropped."""
    reader.expect("{")
    n = 0
    if reader.peek() == "}":
        reader.pos += 1
        out.write(',\n"traceEvents": []')
        return 0
    while True:
        key = reader.value()
        reader.expect(":")
        if key == "traceEvents":
            out.write(',\n"traceEvents": ')
            n = _events(reader, None, fix, out)
        elif key == "tprof":
            reader.value()
        else:
            out.write(",\n%s: %s" % (json.dumps(key), json.dumps(reader.value())))
        c = reader.peek()
        reader.pos += 1
        if c == "}":
            return n
        if c != ",":
            raise ValueError("expected ',' or '}' between keys, found %r" % c)


def private_mode(directory=False):
    """0600 for a file, 0700 for a directory; 0640 and 0750 when TPROF_GROUP_READABLE
    lets the group read profiles."""
    group = os.environ.get("TPROF_GROUP_READABLE", "").lower() in ("1", "yes", "true", "on")
    if directory:
        return 0o750 if group else 0o700
    return 0o640 if group else 0o600


def create_private(path):
    """path, which must not exist (a link there is not followed), created private and
    opened for writing text."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 private_mode())
    return os.fdopen(fd, "w", encoding="utf-8")


def form(path):
    """"array" (PyTorch's own writer) or "object" (Kineto's) for the trace at path."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return "array" if _Reader(f).peek() == "[" else "object"


def rewrite(src, dst, meta, fix):
    """Writes the trace src to dst, private, as {"tprof": meta, ..., "traceEvents": [...]},
    each event through fix(event) -> event: under a temporary name beside dst, renamed over
    dst when whole (an earlier dst is replaced; on an error nothing is left).  Returns the
    number of events; ValueError if src is not a trace of either form."""
    tmp = "%s.tprof-tmp-%d" % (dst, os.getpid())
    try:
        with open(src, encoding="utf-8", errors="surrogateescape") as f, \
                create_private(tmp) as out:
            reader = _Reader(f)
            out.write('{"tprof": %s' % json.dumps(meta))
            if reader.peek() == "[":
                out.write(',\n"traceEvents": ')
                n = _events(reader, _raw_named, fix, out)
            else:
                n = _object(reader, fix, out)
            if reader.peek() != "":
                raise ValueError("more after the trace")
            out.write("}\n")
        os.replace(tmp, dst)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return n
