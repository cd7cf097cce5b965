"""Every model in formal/models, explored exhaustively within its bounds.

Each model module lists its MODELS and, in EXPECTED, the invariant that each is
known to break (None: none). A model of a design we left keeps its
counterexample here as a record; the model of today's code must hold.
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import formal.models
from formal.explore import explore

MODULES = [importlib.import_module(f"formal.models.{m.name}") for m in pkgutil.iter_modules(formal.models.__path__)]
CASES = [(module, model) for module in MODULES for model in module.MODELS]


@pytest.mark.parametrize("module,model", CASES, ids=[model.name for _, model in CASES])
def test_model(module, model):
    result = explore(model)
    expected = module.EXPECTED[model.name]
    if expected is None:
        assert result.complete and result.broken is None, f"{result.broken} broken by: {' → '.join(result.trace)}"
        assert result.states > 100, "a model this small explores nothing"
    else:
        assert result.broken == expected, f"the known counterexample ({expected}) is no longer found"
