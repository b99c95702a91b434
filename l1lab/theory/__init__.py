"""Every theorem bound of the five papers, one module per paper; :mod:`.registry` lists them all."""
from . import duchi2008, kakade_foster_evendar, shalev_shwartz_tewari
from .registry import REGISTRY, TheoremEntry, entries, get

__all__ = ["REGISTRY", "TheoremEntry", "duchi2008", "entries", "get", "kakade_foster_evendar", "shalev_shwartz_tewari"]
