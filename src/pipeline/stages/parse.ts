// Pipeline parsing (spec §3.1, §4.5 parse-time errors).

import { PipelineParseError } from '../errors.js';
import { parsePathRef } from '../expressions/ast.js';
import { parseExpression } from '../expressions/index.js';
import { describe, isMap, show, typeName } from '../../util/json-value.js';
import type { JoinSpec, PipelineSpec, StageSpec } from './spec.js';

const stageOps = new Set(['@join', '@select', '@project', '@unwind', '@demux', '@gather', '@mux']);

function stageEntry(raw: unknown, path: string): [string, unknown] {
  if (!isMap(raw))
    throw new PipelineParseError('pipeline', path, `a stage must be a map with one key, got ${typeName(raw)}`);
  const keys = Object.keys(raw);
  if (keys.length !== 1) {
    throw new PipelineParseError(
      'pipeline',
      path,
      `a stage must have exactly one key, got ${keys.length} (${keys.join(', ')})`,
    );
  }
  const op = keys[0] as string;
  if (!stageOps.has(op)) throw new PipelineParseError(op, path, `unknown pipeline op ${JSON.stringify(op)}`);
  return [op, raw[op]];
}

function parseUnwind(op: '@unwind' | '@demux', arg: unknown, path: string): StageSpec {
  if (typeof arg !== 'string' || arg === '') {
    throw new PipelineParseError(op, path, `the argument must be a literal JSONPath string, got ${describe(arg)}`);
  }
  return { t: 'unwind', op, source: arg, ref: parsePathRef(arg), path };
}

function parseGather(op: '@gather' | '@mux', arg: unknown, path: string): StageSpec {
  if (!Array.isArray(arg) || arg.length !== 2) {
    throw new PipelineParseError(op, path, `the argument must be a [key, valuePath] list, got ${show(arg)}`);
  }
  const [key, value] = arg;
  return {
    t: 'gather',
    op,
    key: parseExpression(key, `${path}.${op}[0]`),
    value: parseExpression(value, `${path}.${op}[1]`),
    valuePath: typeof value === 'string' ? value : null,
    path,
  };
}

function parseStage(op: string, arg: unknown, path: string): StageSpec {
  switch (op) {
    case '@select':
      return { t: 'select', op, expr: parseExpression(arg, `${path}.${op}`), path };
    case '@project': {
      const listForm = Array.isArray(arg);
      const fragments = listForm
        ? arg.map((x, i) => parseExpression(x, `${path}.${op}[${i}]`))
        : [parseExpression(arg, `${path}.${op}`)];
      return { t: 'project', op, fragments, listForm, path };
    }
    case '@unwind':
    case '@demux':
      return parseUnwind(op, arg, path);
    default:
      return parseGather(op as '@gather' | '@mux', arg, path);
  }
}

/**
 * Parses `pipeline` (a stage map, a list of them, or nothing for pass-through) for the given
 * source kinds. Throws PipelineParseError on any shape the original rejects.
 */
export function parsePipeline(raw: unknown, sourceKinds: readonly string[]): PipelineSpec {
  const sources = [...new Set(sourceKinds)];
  if (sources.length === 0) throw new PipelineParseError('pipeline', 'sources', 'at least one source kind is required');
  const list = raw === null || raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (!Array.isArray(raw) && raw !== null && raw !== undefined && !isMap(raw)) {
    throw new PipelineParseError('pipeline', 'pipeline', `expected a stage or a list of stages, got ${typeName(raw)}`);
  }
  let join: JoinSpec | null = null;
  const stages: StageSpec[] = [];
  list.forEach((item, i) => {
    const path = Array.isArray(raw) ? `pipeline[${i}]` : 'pipeline';
    const [op, arg] = stageEntry(item, path);
    if (op === '@join') {
      if (i !== 0) throw new PipelineParseError(op, path, '@join may only be the first stage');
      join = { expr: parseExpression(arg, `${path}.@join`), path };
      return;
    }
    stages.push(parseStage(op, arg, path));
  });
  if (sources.length > 1 && join === null) {
    throw new PipelineParseError(
      'pipeline',
      'pipeline',
      'controllers defined on multiple base resources must specify @join as the first operation',
    );
  }
  return { sources, join, stages };
}
