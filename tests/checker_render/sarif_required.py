"""A hand-written validator for the parts of the SARIF 2.1.0 schema our output uses.

`jsonschema` is not a dependency, so this encodes, for each SARIF object kind we emit, the schema's
`required` properties, its closed property set (`additionalProperties: false` in the schema), the types of
the properties we fill and the few value constraints (enums, minimums) that code scanning rejects when
violated.  It reports every problem it finds as `path: message`, so a failing test says exactly what is
wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class _Kind:
    required: tuple[str, ...] = ()
    any_of: tuple[str, ...] = ()  # at least one of these must be present
    allowed: frozenset[str] = frozenset()
    children: dict[str, str] = field(default_factory=dict)  # property -> kind of the object
    arrays: dict[str, str] = field(default_factory=dict)  # property -> kind of each element
    strings: tuple[str, ...] = ()
    ints: dict[str, int] = field(default_factory=dict)  # property -> minimum
    enums: dict[str, tuple[str, ...]] = field(default_factory=dict)


_LEVELS = ("none", "note", "warning", "error")

KINDS: dict[str, _Kind] = {
    "sarifLog": _Kind(
        required=("version", "runs"),
        allowed=frozenset({"$schema", "version", "runs", "inlineExternalProperties", "properties"}),
        arrays={"runs": "run"},
        strings=("$schema",),
        enums={"version": ("2.1.0",)},
    ),
    "run": _Kind(
        required=("tool",),
        allowed=frozenset(
            {
                "tool", "invocations", "conversion", "language", "versionControlProvenance",
                "originalUriBaseIds", "artifacts", "logicalLocations", "graphs", "results",
                "automationDetails", "runAggregates", "baselineGuid", "redactionTokens",
                "defaultEncoding", "defaultSourceLanguage", "newlineSequences", "columnKind",
                "externalPropertyFileReferences", "threadFlowLocations", "taxonomies", "addresses",
                "translations", "policies", "webRequests", "webResponses", "specialLocations", "properties",
            }
        ),
        children={"tool": "tool"},
        arrays={"results": "result"},
        enums={"columnKind": ("utf16CodeUnits", "unicodeCodePoints")},
    ),
    "tool": _Kind(
        required=("driver",),
        allowed=frozenset({"driver", "extensions", "properties"}),
        children={"driver": "toolComponent"},
    ),
    "toolComponent": _Kind(
        required=("name",),
        allowed=frozenset(
            {
                "guid", "name", "organization", "product", "productSuite", "shortDescription",
                "fullDescription", "fullName", "version", "semanticVersion", "dottedQuadFileVersion",
                "releaseDateUtc", "downloadUri", "informationUri", "globalMessageStrings", "notifications",
                "rules", "taxa", "locations", "language", "contents", "isComprehensive",
                "localizedDataSemanticVersion", "minimumRequiredLocalizedDataSemanticVersion",
                "associatedComponent", "translationMetadata", "supportedTaxonomies", "properties",
            }
        ),
        arrays={"rules": "reportingDescriptor"},
        children={
            "shortDescription": "multiformatMessageString",
            "fullDescription": "multiformatMessageString",
        },
        strings=("name", "version", "informationUri"),
    ),
    "reportingDescriptor": _Kind(
        required=("id",),
        allowed=frozenset(
            {
                "id", "deprecatedIds", "guid", "deprecatedGuids", "name", "deprecatedNames",
                "shortDescription", "fullDescription", "messageStrings", "defaultConfiguration", "helpUri",
                "help", "relationships", "properties",
            }
        ),
        children={
            "shortDescription": "multiformatMessageString",
            "fullDescription": "multiformatMessageString",
            "help": "multiformatMessageString",
            "defaultConfiguration": "reportingConfiguration",
        },
        strings=("id", "name", "helpUri"),
    ),
    "reportingConfiguration": _Kind(
        allowed=frozenset({"enabled", "level", "rank", "parameters", "properties"}),
        enums={"level": _LEVELS},
    ),
    "multiformatMessageString": _Kind(
        required=("text",),
        allowed=frozenset({"text", "markdown", "properties"}),
        strings=("text", "markdown"),
    ),
    "message": _Kind(
        any_of=("text", "id"),
        allowed=frozenset({"text", "markdown", "id", "arguments", "properties"}),
        strings=("text", "markdown", "id"),
    ),
    "result": _Kind(
        required=("message",),
        allowed=frozenset(
            {
                "ruleId", "ruleIndex", "rule", "kind", "level", "message", "analysisTarget", "locations",
                "guid", "correlationGuid", "occurrenceCount", "partialFingerprints", "fingerprints",
                "stacks", "codeFlows", "graphs", "graphTraversals", "relatedLocations", "suppressions",
                "baselineState", "rank", "attachments", "hostedViewerUri", "workItemUris", "provenance",
                "fixes", "taxa", "webRequest", "webResponse", "properties",
            }
        ),
        children={"message": "message", "properties": "propertyBag"},
        arrays={"locations": "location", "relatedLocations": "location"},
        strings=("ruleId",),
        ints={"ruleIndex": -1},
        enums={"level": _LEVELS},
    ),
    "location": _Kind(
        allowed=frozenset(
            {
                "id", "physicalLocation", "logicalLocations", "message", "annotations", "relationships",
                "properties",
            }
        ),
        children={"physicalLocation": "physicalLocation", "message": "message"},
        ints={"id": -1},
    ),
    "physicalLocation": _Kind(
        any_of=("address", "artifactLocation"),
        allowed=frozenset({"address", "artifactLocation", "region", "contextRegion", "properties"}),
        children={"artifactLocation": "artifactLocation", "region": "region"},
    ),
    "artifactLocation": _Kind(
        allowed=frozenset({"uri", "uriBaseId", "index", "description", "properties"}),
        strings=("uri", "uriBaseId"),
    ),
    "region": _Kind(
        allowed=frozenset(
            {
                "startLine", "startColumn", "endLine", "endColumn", "charOffset", "charLength", "byteOffset",
                "byteLength", "snippet", "message", "sourceLanguage", "properties",
            }
        ),
        ints={"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1},
    ),
    "propertyBag": _Kind(),
}  # fmt: skip


def validate(value: Any, kind: str = "sarifLog", where: str = "$") -> list[str]:
    """Every way `value` violates the schema subset for `kind` (an empty list means valid)."""
    spec = KINDS[kind]
    if not isinstance(value, dict):
        return [f"{where}: {kind} must be an object"]
    problems: list[str] = []
    problems += [f"{where}: missing required {name!r}" for name in spec.required if name not in value]
    if spec.any_of and not any(name in value for name in spec.any_of):
        problems.append(f"{where}: needs one of {spec.any_of}")
    if spec.allowed:
        problems += [
            f"{where}: property {name!r} not allowed in {kind}" for name in value if name not in spec.allowed
        ]
    for name in spec.strings:
        if name in value and not isinstance(value[name], str):
            problems.append(f"{where}.{name}: must be a string")
    for name, minimum in spec.ints.items():
        if name in value and (not isinstance(value[name], int) or value[name] < minimum):
            problems.append(f"{where}.{name}: must be an integer >= {minimum}")
    for name, options in spec.enums.items():
        if name in value and value[name] not in options:
            problems.append(f"{where}.{name}: {value[name]!r} not in {options}")
    for name, child in spec.children.items():
        if name in value:
            problems += validate(value[name], child, f"{where}.{name}")
    for name, child in spec.arrays.items():
        if name in value:
            items = value[name]
            if not isinstance(items, list):
                problems.append(f"{where}.{name}: must be an array")
                continue
            for index, item in enumerate(items):
                problems += validate(item, child, f"{where}.{name}[{index}]")
    return problems
