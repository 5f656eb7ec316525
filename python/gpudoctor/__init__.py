"""gpudoctor: why is my model not using the GPU?

The Python face of the native gpudoctor program that this package carries:

    import gpudoctor
    report = gpudoctor.check()                  # this machine, every layer, root cause first
    report = gpudoctor.explain(traceback_text)  # what a GPU error message means, and the fix
    report = gpudoctor.scan(["train.py"])       # device-placement mistakes in code and notebooks
    gpudoctor.install()                         # diagnose GPU errors under a script's traceback

In IPython and Jupyter: `%load_ext gpudoctor`, then `%gpudoctor check|explain|scan`.

Importing gpudoctor is cheap: it starts no process and loads no other module; the functions and
types below load on first use (PEP 562).
"""

__all__ = [
    "BinaryUnavailable",
    "Finding",
    "GpudoctorError",
    "Location",
    "Report",
    "binary_path",
    "check",
    "explain",
    "install",
    "scan",
    "uninstall",
]

# Public name -> the submodule that defines it.
_LAZY = {
    "check": "_api",
    "explain": "_api",
    "scan": "_api",
    "Finding": "_report",
    "Location": "_report",
    "Report": "_report",
    "GpudoctorError": "_binary",
    "BinaryUnavailable": "_binary",
    "binary_path": "_binary",
    "install": "_excepthook",
    "uninstall": "_excepthook",
}


def __getattr__(name):
    if name == "__version__":
        try:
            from gpudoctor._build_info import VERSION
        except ImportError:  # a source checkout: no wheel was built
            VERSION = "0+unknown"
        return VERSION
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gpudoctor' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"gpudoctor.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted([*globals(), *_LAZY, "__version__"])


def load_ipython_extension(ipython):
    """`%load_ext gpudoctor`: the %gpudoctor magic and the diagnosis under GPU tracebacks."""
    from gpudoctor import _notebook

    _notebook.load(ipython)


def unload_ipython_extension(ipython):
    from gpudoctor import _notebook

    _notebook.unload(ipython)
