"""Runs the test_* functions of the given test modules under the MicroPython unix port (no pytest there).

Usage: micropython -X heapsize=33k tests/firmware/mp_runner.py test_law77 test_board ...
Prints one line per failure and ends with pytest's plain closing line, "N passed, N failed".
"""

import gc
import sys


def main(names):
    passed = failed = 0
    for name in names:
        loaded = set(sys.modules)
        module = __import__(name)
        for attr in sorted(dir(module)):
            if not attr.startswith("test_"):
                continue
            fn = getattr(module, attr)
            try:
                fn()
            except Exception as e:  # a failed test, reported and counted, never a crash of the run
                failed += 1
                print("FAILED %s.%s: %s: %s" % (name, attr, type(e).__name__, e))
            else:
                passed += 1
            gc.collect()
        # Free the module, and the firmware modules it brought in, before the next one: a 33 KB heap
        # cannot hold every test module and every firmware package at once.
        for loaded_name in [n for n in sys.modules if n not in loaded]:
            del sys.modules[loaded_name]
        module = fn = None
        gc.collect()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


sys.exit(main(sys.argv[1:]))
