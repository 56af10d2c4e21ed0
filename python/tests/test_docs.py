"""The examples in the package's docstrings hold, and every public function has one."""

from __future__ import annotations

import doctest
import inspect

import pytest

import raysweep
from raysweep import _grid, _impact, _instances, _periodic, _results, _scene


@pytest.mark.parametrize(
    "module", [raysweep, _grid, _impact, _instances, _periodic, _results, _scene], ids=lambda m: m.__name__
)
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0


def test_every_public_function_has_an_example():
    assert isinstance(raysweep.__version__, str) and raysweep.__version__.count(".") == 2
    for name in raysweep.__all__:
        item = getattr(raysweep, name)
        if name == "__version__":
            continue
        if isinstance(item, type) and issubclass(item, tuple):
            assert item.__doc__, name  # the answers: documented, no example needed
            continue
        members = [item] + [m for n, m in inspect.getmembers(item, inspect.isfunction) if not n.startswith("_")]
        for member in members:
            doc = member.__doc__ or ""
            assert ">>>" in doc, member.__qualname__
