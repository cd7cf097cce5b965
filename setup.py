"""Ships the plugin (the repository root's `.claude-plugin/`, `.mcp.json`, `hooks/`, `skills/`) inside
the package as `kg_actors/plugin/`, so `kg setup` installs it from any install, not from a checkout.

The files stay where they are in the repository, which remains a plugin folder for
`claude --plugin-dir .`; they are copied into the build only (an editable install
reads them from the checkout: see kg_actors/setup/plugin.py:plugin_source).
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
PLUGIN_FILES = (".claude-plugin/plugin.json", ".mcp.json")
PLUGIN_DIRS = ("hooks", "skills", "harnesses")


class build_py_with_plugin(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "kg_actors" / "plugin"
        files = [ROOT / f for f in PLUGIN_FILES]
        for folder in PLUGIN_DIRS:
            files += [p for p in sorted((ROOT / folder).rglob("*")) if p.is_file() and "__pycache__" not in p.parts]
        for src in files:
            dest = target / src.relative_to(ROOT)
            dest.parent.mkdir(parents=True, exist_ok=True)
            self.copy_file(str(src), str(dest), preserve_mode=True)


setup(cmdclass={"build_py": build_py_with_plugin})
