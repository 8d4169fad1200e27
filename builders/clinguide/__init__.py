"""ClinGuide-MT: ordered diagnostic pathways from the project's own guideline trees
(protocols §5.5). Trees are data (`trees/*.json`, read and checked by
`infoseek.builders.clinguide.trees`); `infoseek.builders.clinguide.builder` makes the
problems, `infoseek.builders.clinguide.render` the prompts, and
`infoseek.builders.clinguide.domain` declares the domain."""
