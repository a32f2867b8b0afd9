"""Builds pilewise._native against the burraco installed in the environment.

burraco.get_include() is the folder that holds burraco/policy.h and burraco/policy.pxd: it goes on
the C include path (for policy.h) and on Cython's include path (for ``cimport burraco.policy``).
"""

import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

import burraco

include = burraco.get_include()
# The card sets are bit planes read with popcount: on x86-64 ask for the x86-64-v2 level (hardware
# popcount, every x86-64 CPU since 2009), as burraco's own build does; elsewhere the default.
flags = ["-O3", "-march=x86-64-v2"] if platform.machine() in ("x86_64", "AMD64") else ["-O3"]

setup(
    ext_modules=cythonize(
        [Extension(f"pilewise.{name}", [f"pilewise/{name}.pyx"], include_dirs=[include],
                   extra_compile_args=flags) for name in ("_native", "_greedy")],
        include_path=[include],
        compiler_directives={"language_level": 3},
    )
)
