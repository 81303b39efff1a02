#!/usr/bin/env python3
"""Regenerates plaid_schemas.json from Plaid's OpenAPI spec.

Usage: extract_schemas.py 2020-09-14.yml > plaid_schemas.json
(the spec is plaid/plaid-openapi's 2020-09-14.yml; needs PyYAML).

Keeps, for each endpoint the test server implements, the request body schema, the 200 response
schema and every schema they reference (plus PlaidError), with only the keywords the validator
reads. `$ref` values become bare schema names. Nothing is edited by hand: the server checks
requests (and its tests check the server's responses) against the spec, not our opinion.
"""
import json
import sys

import yaml

PATHS = ['/link/token/create', '/sandbox/public_token/create', '/item/public_token/exchange',
         '/accounts/get', '/transactions/sync', '/transactions/refresh', '/item/get', '/item/remove',
         '/webhook_verification_key/get']
KEEP = {'type', 'properties', 'required', 'enum', 'nullable', 'items', 'minimum', 'maximum',
        'exclusiveMinimum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'allOf',
        'additionalProperties', 'format', '$ref', 'pattern', 'oneOf', 'anyOf'}

spec = yaml.load(open(sys.argv[1]), Loader=getattr(yaml, 'CSafeLoader', yaml.SafeLoader))
schemas = spec['components']['schemas']
out, seen = {}, set()


def clean(node):
    if isinstance(node, list):
        return [clean(x) for x in node]
    if not isinstance(node, dict):
        return node
    result = {}
    for key, value in node.items():
        if key == 'properties':
            result[key] = {name: clean(prop) for name, prop in value.items()}
        elif key == '$ref':
            name = value.split('/')[-1]
            result[key] = name
            if name not in seen:
                seen.add(name)
                out[name] = clean(schemas[name])
        elif key in KEEP:
            result[key] = clean(value)
    return result


def root(ref):
    name = ref.split('/')[-1]
    if name not in seen:
        seen.add(name)
        out[name] = clean(schemas[name])
    return name


requests, responses = {}, {}
for path in PATHS:
    operation = spec['paths'][path]['post']
    requests[path] = root(operation['requestBody']['content']['application/json']['schema']['$ref'])
    responses[path] = root(operation['responses']['200']['content']['application/json']['schema']['$ref'])
error = root('#/components/schemas/PlaidError')

doc = {
    '_comment': 'Request and response schemas of the endpoints the test server implements, extracted '
                'mechanically from plaid/plaid-openapi 2020-09-14.yml (commit 26f1a05, version ' + spec['info']['version'] +
                ') by Tests/PlaidTestServer/extract_schemas.py, keeping only validation keywords; '
                '$ref values are bare schema names. Regenerate rather than edit.',
    'requests': requests,
    'responses': responses,
    'error': error,
    'schemas': dict(sorted(out.items())),
}
print(json.dumps(doc, indent=1))
