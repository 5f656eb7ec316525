"""The typed form of gpudoctor's JSON output (`check --json`, `explain --json`, `scan --json`),
with a plain-text and an HTML rendering (IPython shows the HTML in Jupyter, the text in a terminal)."""
import html
from dataclasses import dataclass, field
from typing import Optional, Tuple

_SYMBOL = {"error": "✖", "warning": "▲", "info": "●"}
_COLOUR = {"error": "#c62828", "warning": "#ef6c00", "info": "#1565c0"}


@dataclass(frozen=True)
class Location:
    """Where in the code a `scan` finding is."""

    file: str
    line: int
    column: int

    def __str__(self):
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Finding:
    """One finding: a stable dotted id (docs/checks.md), its layer (environment, driver, framework,
    code, run), severity (error, warning, info), what is wrong, the evidence, and the fix."""

    id: str
    layer: str
    severity: str
    message: str
    evidence: Tuple[str, ...] = ()
    fix: str = ""
    docs: str = ""
    explained_by: Tuple[str, ...] = ()  # the root causes this finding is a symptom of
    location: Optional[Location] = None

    @classmethod
    def from_json(cls, j):
        loc = j.get("location")
        return cls(
            id=str(j.get("id", "")),
            layer=str(j.get("layer", "")),
            severity=str(j.get("severity", "")),
            message=str(j.get("message", "")),
            evidence=tuple(str(e) for e in j.get("evidence", ())),
            fix=str(j.get("fix", "")),
            docs=str(j.get("docs", "")),
            explained_by=tuple(str(e) for e in j.get("explained_by", ())),
            location=Location(str(loc.get("file", "")), int(loc.get("line", 0)), int(loc.get("column", 0)))
            if isinstance(loc, dict)
            else None,
        )

    def text(self):
        head = f"{_SYMBOL.get(self.severity, '?')} {self.layer:<12} {self.id}"
        if self.location:
            head += f"  {self.location}"
        lines = [head, f"  {self.message}"]
        lines += [f"  evidence: {e}" for e in self.evidence]
        if self.fix:
            lines.append(f"  fix: {self.fix}")
        return "\n".join(lines)

    def html(self):
        e = html.escape
        colour = _COLOUR.get(self.severity, "#555")
        where = f' <span style="color:#555">{e(str(self.location))}</span>' if self.location else ""
        evidence = "".join(f"<li><code>{e(x)}</code></li>" for x in self.evidence)
        return (
            f'<div class="gpudoctor-finding" data-id="{e(self.id)}" style="border-left:4px solid {colour};'
            'padding:4px 10px;margin:6px 0">'
            f'<div><b style="color:{colour}">{e(self.severity)}</b> · {e(self.layer)} · <code>{e(self.id)}</code>{where}</div>'
            f'<div style="margin:2px 0">{e(self.message)}</div>'
            + (f'<ul style="margin:2px 0;color:#444">{evidence}</ul>' if evidence else "")
            + (f'<div class="gpudoctor-fix"><b>Fix:</b> {e(self.fix)}</div>' if self.fix else "")
            + "</div>"
        )


@dataclass(frozen=True)
class Report:
    """What one gpudoctor command found: the findings, root cause first, and the exit status
    (0 no error finding, 1 at least one, 3 `explain` recognised nothing in the text)."""

    command: str
    findings: Tuple[Finding, ...]
    exit_status: int
    notes: Tuple[str, ...] = ()
    outcome: str = ""
    raw: dict = field(default_factory=dict, repr=False, compare=False)  # the whole JSON object

    @classmethod
    def from_json(cls, j, exit_status):
        return cls(
            command=str(j.get("command", "")),
            findings=tuple(Finding.from_json(f) for f in j.get("findings", ())),
            exit_status=exit_status,
            notes=tuple(str(n) for n in j.get("notes", ())),
            outcome=str(j.get("outcome", "")),
            raw=j,
        )

    @property
    def errors(self):
        return tuple(f for f in self.findings if f.severity == "error")

    @property
    def root_causes(self):
        """The findings that no other finding explains, in order."""
        return tuple(f for f in self.findings if not f.explained_by)

    def ids(self):
        return [f.id for f in self.findings]

    def __str__(self):
        if not self.findings:
            return f"gpudoctor {self.command}: no findings" + "".join(f"\n  {n}" for n in self.notes)
        return "\n".join(f.text() for f in self.findings)

    def _repr_pretty_(self, p, cycle):
        p.text(str(self))

    def _repr_html_(self):
        title = html.escape(f"gpudoctor {self.command}")
        if not self.findings:
            notes = "".join(f"<li>{html.escape(n)}</li>" for n in self.notes)
            body = f"<p>No findings.</p><ul>{notes}</ul>"
        else:
            body = "".join(f.html() for f in self.findings)
        return f'<div class="gpudoctor-report"><div style="font-weight:bold">{title}</div>{body}</div>'
