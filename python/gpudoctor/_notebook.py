"""The IPython extension (`%load_ext gpudoctor`): the %gpudoctor magic, and gpudoctor's diagnosis
under the traceback of a cell that raised a GPU error.

The magic returns a Report (or prints one line on bad arguments or a failure): Jupyter shows its
HTML, a terminal IPython its text. The exception handler shows IPython's own traceback first,
unchanged, then the diagnosis; whatever happens inside gpudoctor, the kernel gets one line."""
import os
import shlex
import sys

from gpudoctor._excepthook import diagnose, is_gpu_exception, one_line_failure

_USAGE = (
    "usage: %gpudoctor check [--deep] | %gpudoctor explain [FILE] (default: the last error) | "
    "%gpudoctor scan PATH..."
)
_state = {}


def _line(text):
    print(text, file=sys.stderr, flush=True)


def _explain_input(args):
    if len(args) > 1:
        raise ValueError("explain takes at most one FILE")
    if args:
        with open(args[0], "rb") as f:
            return f.read(16 * 1024 * 1024)
    value = getattr(sys, "last_value", None)
    if value is None:
        raise ValueError("no error to explain yet: run the failing cell first, or give a FILE")
    from gpudoctor._excepthook import traceback_text

    return traceback_text(type(value), value, getattr(sys, "last_traceback", None))


def gpudoctor_magic(line):
    """%gpudoctor check [--deep] | explain [FILE] | scan PATH..."""
    from gpudoctor import _api

    try:
        args = shlex.split(line)
    except ValueError as e:
        _line(f"gpudoctor: cannot read the arguments ({e}); {_USAGE}")
        return None
    if not args or args[0] not in ("check", "explain", "scan"):
        _line(f"gpudoctor: unknown command {args[0]!r}; {_USAGE}" if args else f"gpudoctor: {_USAGE}")
        return None
    command, rest = args[0], args[1:]
    try:
        if command == "check":
            unknown = [a for a in rest if a != "--deep"]
            if unknown:
                raise ValueError(f"check takes only --deep, not {unknown[0]!r}")
            return _api.check(deep="--deep" in rest)
        if command == "explain":
            return _api.explain(_explain_input(rest))
        if not rest:
            raise ValueError("scan needs at least one PATH")
        missing = [p for p in rest if not os.path.exists(p)]
        if missing:
            raise ValueError(f"no such file or directory: {missing[0]}")
        return _api.scan(rest)
    except Exception as e:  # noqa: BLE001 - a magic prints one line, never a traceback
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        _line(f"gpudoctor {command}: {reason}")
        return None


def _exception_handler(shell, etype, value, tb, tb_offset=None):
    # As IPython's own run_code shows it (running_compiled_code: a SyntaxError raised while the
    # cell ran keeps its whole traceback).
    shell.showtraceback((etype, value, tb), tb_offset=tb_offset, running_compiled_code=True)
    try:
        if is_gpu_exception(etype, value):
            from IPython.display import display

            display(diagnose(etype, value, tb))
    except BaseException as e:  # noqa: BLE001 - one line, never a second traceback
        _line(one_line_failure(e))
    return None


def load(ipython):
    ipython.register_magic_function(gpudoctor_magic, magic_kind="line", magic_name="gpudoctor")
    if "custom_exceptions" not in _state:
        _state["custom_exceptions"] = ipython.custom_exceptions
        _state["CustomTB"] = ipython.CustomTB
    ipython.set_custom_exc((Exception,), _exception_handler)


def unload(ipython):
    if "custom_exceptions" in _state:
        ipython.custom_exceptions = _state.pop("custom_exceptions")
        ipython.CustomTB = _state.pop("CustomTB")
