"""Language front-ends: source text -> the common IR (`code.ir`)."""
