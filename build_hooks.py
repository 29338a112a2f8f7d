"""The build's one addition to setuptools: the translation catalogs compiled into the wheel.

`firmware/locale/<lang>/LC_MESSAGES/xtraboard.po` becomes `xtraboard.mo` beside it in the built
package, so an installed board reads compiled catalogs and never needs Babel at run time.
"""

from __future__ import annotations

from pathlib import Path

from setuptools.command.build_py import build_py


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        source = Path(__file__).resolve().parent / "firmware" / "locale"
        for po in sorted(source.glob("*/LC_MESSAGES/xtraboard.po")):
            target = Path(self.build_lib) / "firmware" / "locale" / po.relative_to(source).with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as file:
                catalog = read_po(file, locale=po.parent.parent.name, domain="xtraboard")
            with target.open("wb") as file:
                write_mo(file, catalog, use_fuzzy=False)
