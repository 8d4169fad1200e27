"""GeneReg-MT: Boolean gene-regulatory networks (curated rule files and seeded random
ones), their attractor catalogues, the builder, the renderer and the wording."""
