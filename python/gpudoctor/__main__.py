"""`python -m gpudoctor ARGS` (and the `gpudoctor` console script): runs the carried binary in
place of this interpreter, so its terminal, signals and exit status are the binary's own."""
import os
import sys


def main(argv=None):
    from gpudoctor._binary import BinaryUnavailable, runnable_binary

    args = sys.argv[1:] if argv is None else list(argv)
    try:
        path = runnable_binary()
    except BinaryUnavailable as e:
        print(f"gpudoctor: {e}", file=sys.stderr)
        return 2
    try:
        os.execv(path, [path, *args])
    except OSError as e:
        print(f"gpudoctor: cannot run {path}: {e.strerror}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
