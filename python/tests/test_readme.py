"""The README's Python examples, run as doctests over generated tables."""

import doctest

from conftest import REPO


def test_readme_examples(tables, tmp_path, monkeypatch):
    (tmp_path / "tables").symlink_to(tables, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    readme = (REPO / "README.md").read_text()
    start = readme.index("## Python")
    section = readme[start : readme.index("\n## ", start + 1)]
    parser = doctest.DocTestParser()
    test = parser.get_doctest(section, {}, "README.md#python", str(REPO / "README.md"), 0)
    assert test.examples, "the README's Python section has examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert attempted == len(test.examples)
    assert failed == 0
