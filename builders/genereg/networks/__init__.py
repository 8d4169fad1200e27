"""Curated rule files of GeneReg-MT: one network per .txt file, a source line each."""
