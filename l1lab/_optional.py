"""Optional dependencies: imported when a feature needs them, with an error that says which extra installs them.

``import l1lab`` needs numpy, scipy and numba only; joblib (parallel sweeps), tqdm (progress bars) and
scikit-learn (the svmlight reader of the real data sets, :mod:`l1lab.estimators`) are extras.
"""
from __future__ import annotations

import importlib

__all__ = ["progress_bar", "require"]


def require(module: str, feature: str, extra: str):
    """Import ``module`` for ``feature``, or raise an ImportError that names the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise ImportError(f"{feature} needs the package {module.split('.')[0]!r}: pip install 'l1lab[{extra}]'"
                          ) from err


class _NoBar:
    """What :func:`progress_bar` returns without tqdm: the calls a caller makes, doing nothing."""

    def __init__(self, *args, **kwargs):
        pass

    def update(self, n=1):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def progress_bar(**kwargs):
    """A tqdm progress bar when tqdm is installed; otherwise an object with the same ``update``/``close``
    that shows nothing (a progress bar is a convenience, never a requirement)."""
    try:
        from tqdm import tqdm
    except ImportError:
        return _NoBar()
    return tqdm(**kwargs)
