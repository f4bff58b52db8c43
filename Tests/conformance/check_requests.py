#!/usr/bin/env python3
"""Checks recorded HTTP requests against Google's own discovery document for an API, as bundled
in the installed google-api-python-client (googleapiclient/discovery_cache/documents/calendar.v3.json
or gmail.v1.json). A request a real Google server would reject or misread fails here, whoever made it.

    python check_requests.py calendar|gmail REQUESTS_JSON      # REQUESTS_JSON: a file, or - for stdin

REQUESTS_JSON is the array `GET /_fake/requests` answers. Fields used per request:
    method  "GET", "POST", ...
    path    "/calendar/v3/calendars/primary/events" (no query string; percent-encoding allowed)
    query   [{"name": ..., "value": ...}, ...] in order, repeated names repeated
    body    optional JSON text of the request body (checked against the method's request schema)
Other fields (headers, status, fault, receivedAt, form) are ignored. Requests whose path is outside
the API (e.g. /token for OAuth, or the other API) are skipped and counted.

Rules, per request:
  * method + path match exactly one method of the API: servicePath + path (or flatPath), where
    {name} is one path segment and {+name} any remainder;
  * each query parameter is declared by that method (location "query") or is a standard parameter
    of the API (fields, alt, prettyPrint, key, quotaUser, ...);
  * its value has the declared type: integer (digits, within minimum/maximum), boolean (true|false),
    number, string formats date-time (RFC 3339 with offset), date, int64/uint64/int32/uint32 (digits),
    and enum values (exact, case-sensitive);
  * a parameter appears more than once only if it is declared "repeated": true;
  * required query parameters are present; path parameters are never empty;
  * a JSON body names only properties of the request schema, with enum values from the schema
    (compared case-insensitively: Google's own guide writes INCLUDE for labelFilterBehavior).

Prints one line per violation and a summary; exits 1 on any violation, 2 on bad usage or input, else 0.
"""

import json
import os
import re
import sys
import urllib.parse

VERSIONS = {"calendar": "v3", "gmail": "v1"}
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
INTEGER_FORMATS = {"int32": (-(2**31), 2**31 - 1), "uint32": (0, 2**32 - 1),
                   "int64": (-(2**63), 2**63 - 1), "uint64": (0, 2**64 - 1)}


def usage(message):
    print(f"check_requests: {message}", file=sys.stderr)
    print("usage: check_requests.py calendar|gmail REQUESTS_JSON   (REQUESTS_JSON a file, or - for stdin)", file=sys.stderr)
    sys.exit(2)


def load_discovery(api):
    try:
        import googleapiclient
    except ImportError:
        usage("googleapiclient is not importable; run Tests/conformance/bootstrap_venv.sh and use its python")
    path = os.path.join(os.path.dirname(googleapiclient.__file__), "discovery_cache", "documents",
                        f"{api}.{VERSIONS[api]}.json")
    with open(path) as handle:
        return json.load(handle)


def template_regex(template):
    """'calendar/v3/calendars/{calendarId}/events' -> a regex with one named group per parameter."""
    pattern, names, position = "", [], 0
    for match in re.finditer(r"\{(\+?)([^}]+)\}", template):
        pattern += re.escape(template[position:match.start()])
        group = f"p{len(names)}"
        names.append(match.group(2))
        pattern += f"(?P<{group}>.+)" if match.group(1) else f"(?P<{group}>[^/]+)"
        position = match.end()
    pattern += re.escape(template[position:])
    return re.compile("^" + pattern + "$"), names


def collect_methods(discovery):
    """Every method of the API as (httpMethod, regex, path parameter names, method description)."""
    service_path = discovery.get("servicePath", "")
    methods = []

    def walk(resource):
        for method in resource.get("methods", {}).values():
            for key in ("flatPath", "path"):
                if key in method:
                    regex, names = template_regex(service_path + method[key])
                    methods.append((method["httpMethod"], regex, names, method))
        for child in resource.get("resources", {}).values():
            walk(child)

    walk(discovery)
    return methods


def api_prefix(methods):
    """The path prefix every method of the API shares (e.g. 'calendar/v3/' or 'gmail/v1/users/')."""
    literals = [regex.pattern[1:].split("(?P<")[0].replace("\\", "") for _, regex, _, _ in methods]
    prefix = os.path.commonprefix(literals)
    return prefix[: prefix.rfind("/") + 1]


def check_value(name, value, spec):
    """Why `value` is not a valid `spec` parameter, or None."""
    kind, fmt = spec.get("type", "string"), spec.get("format")
    if "enum" in spec and value not in spec["enum"]:
        return f"{name}={value!r} is not one of {spec['enum']}"
    if kind == "integer" or (kind == "string" and fmt in INTEGER_FORMATS):
        if not re.fullmatch(r"-?\d+", value):
            return f"{name}={value!r} is not an integer"
        number = int(value)
        low, high = INTEGER_FORMATS.get(fmt, (None, None))
        if "minimum" in spec:
            low = int(spec["minimum"])
        if "maximum" in spec:
            high = int(spec["maximum"])
        if low is not None and number < low:
            return f"{name}={value} is below the minimum {low}"
        if high is not None and number > high:
            return f"{name}={value} is above the maximum {high}"
    elif kind == "boolean":
        if value not in ("true", "false"):
            return f"{name}={value!r} is not a boolean (true|false)"
    elif kind == "number":
        try:
            float(value)
        except ValueError:
            return f"{name}={value!r} is not a number"
    elif fmt == "date-time" and not RFC3339.match(value):
        return f"{name}={value!r} is not RFC 3339 with a time zone offset"
    elif fmt == "date" and not DATE.match(value):
        return f"{name}={value!r} is not a yyyy-mm-dd date"
    return None


def check_body(body_text, method, discovery):
    schema_ref = method.get("request", {}).get("$ref")
    if not body_text:
        return []
    if not schema_ref:
        return [f"has a body but {method['id']} takes none"]
    try:
        body = json.loads(body_text)
    except ValueError:
        return ["body is not JSON"]
    if not isinstance(body, dict):
        return ["body is not a JSON object"]
    properties = discovery["schemas"][schema_ref].get("properties", {})
    problems = []
    for key, value in body.items():
        if key not in properties:
            problems.append(f"body property {key!r} is not in schema {schema_ref}")
            continue
        enum = properties[key].get("enum")
        if enum and isinstance(value, str) and value.lower() not in [e.lower() for e in enum]:
            problems.append(f"body property {key}={value!r} is not one of {enum}")
    return problems


def check(request, methods, discovery, prefix):
    """(skipped, [violations]) for one recorded request."""
    path = request.get("path", "")
    relative = path.lstrip("/")
    if not relative.startswith(prefix):
        return True, []
    verb = request.get("method", "").upper()
    candidates = [(regex.match(relative), names, method) for http, regex, names, method in methods if http == verb]
    candidates = [(match, names, method) for match, names, method in candidates if match]
    if not candidates:
        return False, [f"no {discovery['name']} {discovery['version']} method serves {verb} {path}"]
    # Prefer the most literal template (fewest parameters): 'events/watch' over 'events/{eventId}'.
    match, names, method = min(candidates, key=lambda c: len(c[1]))
    problems = []
    parameters = method.get("parameters", {})
    for index, name in enumerate(names):
        if not urllib.parse.unquote(match.group(f"p{index}")):
            problems.append(f"path parameter {name} is empty")
    seen = {}
    for field in request.get("query", []):
        name, value = field.get("name"), field.get("value", "")
        spec = parameters.get(name)
        if spec is None or spec.get("location") != "query":
            spec = discovery.get("parameters", {}).get(name)
        if spec is None:
            problems.append(f"no query parameter {name!r}")
            continue
        seen[name] = seen.get(name, 0) + 1
        if seen[name] == 2 and not spec.get("repeated"):
            problems.append(f"{name} is repeated but {method['id']} takes it once")
        why = check_value(name, value, spec)
        if why:
            problems.append(why)
    for name, spec in parameters.items():
        if spec.get("location") == "query" and spec.get("required") and name not in seen:
            problems.append(f"required query parameter {name} is missing")
    problems += check_body(request.get("body"), method, discovery)
    return False, [f"{method['id']}: {problem}" for problem in problems]


def main():
    if len(sys.argv) != 3:
        usage("expected two arguments")
    api, source = sys.argv[1], sys.argv[2]
    if api not in VERSIONS:
        usage(f"unknown API {api!r}; use calendar or gmail")
    try:
        text = sys.stdin.read() if source == "-" else open(source).read()
        requests = json.loads(text)
    except (OSError, ValueError) as error:
        usage(f"cannot read requests from {source}: {error}")
    if not isinstance(requests, list):
        usage("REQUESTS_JSON must be a JSON array (what GET /_fake/requests answers)")

    discovery = load_discovery(api)
    methods = collect_methods(discovery)
    prefix = api_prefix(methods)
    violations, skipped, checked = 0, 0, 0
    for index, request in enumerate(requests):
        was_skipped, problems = check(request, methods, discovery, prefix)
        if was_skipped:
            skipped += 1
            continue
        checked += 1
        query = "&".join(f"{f.get('name')}={f.get('value')}" for f in request.get("query", []))
        for problem in problems:
            violations += 1
            print(f"VIOLATION request #{index} {request.get('method')} {request.get('path')}"
                  f"{'?' + query if query else ''}: {problem}")
    print(f"check_requests: {checked} {api} {VERSIONS[api]} requests checked, {skipped} outside the API skipped, "
          f"{violations} violations")
    sys.exit(1 if violations else 0)


if __name__ == "__main__":
    main()
