"""Data: feature scaling, the synthetic setups of the five papers, and the real data sets with a verified cache.

* :mod:`.synthetic` -- :func:`scale_features` (to the papers' [-1, 1]) and the generators of the
  coordinate-descent and SMIDAS chapters;
* :mod:`.real` -- the real data sets of Section 4 of Shalev-Shwartz & Tewari (2011) and RCV1/CCAT: downloaded,
  checksummed and cached, with labelled offline stand-ins;
* :mod:`.lower_bound` -- the distribution of Lemma 5 of Shalev-Shwartz & Tewari (2011), and a finite design whose
  empirical risk equals its population risk;
* :mod:`.teacher` -- the sparse logistic teacher of the exponentiated-gradient chapter, as a counter-based stream;
* :mod:`.pgs` -- the Gaussian classes and the text-like data of Zhu et al. (2009), Section V;
* :mod:`.radar` -- the uniform-design regression stream of Agarwal, Negahban & Wainwright (2012), Section 4;
* :mod:`.results` -- result files of paper-size computations, fingerprinted, written by the book's build and read
  (or downloaded from the book's site) by a live reader.
"""
from . import lower_bound, pgs, radar, real, synthetic, teacher
from .real import load_dataset
from .synthetic import add_random_features, make_classification, make_regression, scale_features

__all__ = ["add_random_features", "load_dataset", "lower_bound", "make_classification", "make_regression", "pgs",
           "radar", "real", "scale_features", "synthetic", "teacher"]
