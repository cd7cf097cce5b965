"""Which repository a folder's project is: linked worktrees share their repository's, submodules and nested
repositories are their own, and a `.git` file that does not read is not followed. Real git makes each layout."""

import os
import subprocess

from kg_actors.storage import work_trees as W


def git(*args, cwd=None):
    subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=a", "-c", "protocol.file.allow=always",
                    *args], cwd=cwd, check=True, capture_output=True)


def repo(path):
    path.mkdir(parents=True, exist_ok=True)
    git("init", "-q", str(path))
    git("commit", "-q", "--allow-empty", "-m", "first", cwd=str(path))
    return path


def project(folder, home, own=()):
    return W.project_of(os.path.realpath(folder), os.path.realpath(home), lambda f: f in own)


def test_a_linked_worktree_is_its_repositorys_project_wherever_it_lies(tmp_path):
    main = repo(tmp_path / "repos" / "r01")
    claude = main / ".claude" / "worktrees" / "fix-bug"
    git("worktree", "add", "-q", str(claude), cwd=str(main))
    git("worktree", "add", "-q", str(tmp_path / "wt" / "r01-feature"), cwd=str(main))
    (claude / "src" / "deep").mkdir(parents=True)
    real = os.path.realpath
    assert project(claude, tmp_path) == real(main)
    assert project(claude / "src" / "deep", tmp_path) == real(main)
    assert project(tmp_path / "wt" / "r01-feature", tmp_path) == real(main)
    assert project(main, tmp_path) == real(main)


def test_a_bare_repositorys_worktrees_share_one_project_named_by_its_folder(tmp_path):
    bare = tmp_path / "app.git"
    git("init", "-q", "--bare", str(bare))
    seed = repo(tmp_path / "seed")
    git("push", "-q", str(bare), "HEAD:main", cwd=str(seed))
    for name in ("main", "feature"):
        git("worktree", "add", "-q", "-b", f"w-{name}", str(tmp_path / "app" / name), "main", cwd=str(bare))
    assert project(tmp_path / "app" / "main", tmp_path) == os.path.realpath(bare)
    assert project(tmp_path / "app" / "feature", tmp_path) == os.path.realpath(bare)


def test_submodules_and_nested_repositories_stay_projects_of_their_own(tmp_path):
    lib = repo(tmp_path / "lib")
    sup = repo(tmp_path / "super")
    git("submodule", "add", "-q", str(lib), "vendor/lib", cwd=str(sup))
    nested = repo(sup / "tools" / "inner")
    real = os.path.realpath
    assert open(sup / "vendor" / "lib" / ".git").read().startswith("gitdir:")  # a .git file, as a worktree's
    assert project(sup / "vendor" / "lib", tmp_path) == real(sup / "vendor" / "lib")
    assert project(nested, tmp_path) == real(nested)
    assert project(sup / "tools", tmp_path) == real(sup)


def test_a_git_file_that_does_not_read_or_points_nowhere_is_not_followed(tmp_path):
    home = tmp_path
    cases = {"nowhere": "gitdir: /no/such/place/worktrees/x\n", "garbage": "\x00\xff not a pointer",
             "empty": "", "long": "gitdir: " + "a/" * 5000}
    for name, text in cases.items():
        folder = tmp_path / name
        folder.mkdir()
        (folder / ".git").write_text(text, errors="surrogateescape")
        assert project(folder, home) == os.path.realpath(folder), name
    # A worktree whose repository's checkout is gone (its `.git` removed) stays its own.
    main = repo(tmp_path / "r02")
    git("worktree", "add", "-q", str(tmp_path / "r02-wt"), cwd=str(main))
    os.rename(main / ".git", tmp_path / "kept-git")
    assert project(tmp_path / "r02-wt", home) == os.path.realpath(tmp_path / "r02-wt")
    # A repository outside home: the worktree inside it is its own project.
    outside = repo(tmp_path / "outside" / "r03")
    git("worktree", "add", "-q", str(tmp_path / "home" / "r03-wt"), cwd=str(outside))
    assert project(tmp_path / "home" / "r03-wt", tmp_path / "home") == os.path.realpath(tmp_path / "home" / "r03-wt")


def test_a_subfolder_with_a_graph_of_its_own_keeps_it(tmp_path):
    main = repo(tmp_path / "r04")
    (main / "kept").mkdir()
    kept = os.path.realpath(main / "kept")
    assert project(main / "kept", tmp_path, own={kept}) == kept


def test_a_worktrees_files_are_named_as_the_main_checkouts(tmp_path):
    main = repo(tmp_path / "r05")
    wt = tmp_path / "wt" / "r05-x"
    git("worktree", "add", "-q", str(wt), cwd=str(main))
    h, real = os.path.realpath(tmp_path), os.path.realpath
    assert W.binding_of(real(wt), h, lambda f: False) == (real(main), real(wt))
    assert W.binding_of(real(main), h, lambda f: False) == (real(main), None)
    files = [f"{real(wt)}/src/a.py", f"{real(main)}/src/a.py", "/elsewhere/b.py"]
    assert W.as_in_checkout(files, real(wt), real(main)) == [f"{real(main)}/src/a.py", "/elsewhere/b.py"]


def test_a_linked_worktree_of_a_submodule_is_the_submodules_project(tmp_path):
    lib = repo(tmp_path / "subsrc")
    sup = repo(tmp_path / "super")
    git("submodule", "add", "-q", str(lib), "sub", cwd=str(sup))
    git("-C", str(sup / "sub"), "worktree", "add", "-q", str(tmp_path / "subwt"), "-b", "sw")
    (tmp_path / "subwt" / "deep").mkdir()
    h, real = os.path.realpath(tmp_path), os.path.realpath
    # Where sessions in the submodule's folder work, never its git dir inside the superproject's .git.
    assert W.binding_of(real(tmp_path / "subwt"), h, lambda f: False) == (real(sup / "sub"), real(tmp_path / "subwt"))
    assert project(tmp_path / "subwt" / "deep", tmp_path) == real(sup / "sub")
    assert project(sup / "sub", tmp_path) == real(sup / "sub")
    # A submodule whose work tree is gone (deinit'ed): its worktree stays a project of its own.
    git("submodule", "deinit", "-q", "-f", "sub", cwd=str(sup))
    assert project(tmp_path / "subwt", tmp_path) == real(tmp_path / "subwt")
