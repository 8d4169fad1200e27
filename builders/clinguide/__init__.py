"""ClinGuide-MT: ordered diagnostic pathways from the project's own guideline trees
(SPEC 5.5). Trees are data (`trees/*.json`, read and checked by `builders.clinguide.trees`);
`builders.clinguide.builder` makes the problems, `builders.clinguide.render` the prompts,
`builders.clinguide.domain` declares the domain."""
