/**
 * The codec registry: model id (stored as `devices.model`) → codec. Adding a device model means
 * adding its codec file and one entry here.
 */
import { CodecError, type DeviceCodec, MODEL_IDS, type ModelId } from './codec.ts';
import { draginoLt22222 } from './dragino-lt22222.ts';
import { elsysErs } from './elsys-ers.ts';
import { mclimateVicki } from './mclimate-vicki.ts';
import { micropeltMlr003 } from './micropelt-mlr003.ts';
import { milesightWt101 } from './milesight-wt101.ts';

const CODECS: Record<ModelId, DeviceCodec> = {
  'mclimate-vicki': mclimateVicki,
  'milesight-wt101': milesightWt101,
  'micropelt-mlr003': micropeltMlr003,
  'elsys-ers': elsysErs,
  'dragino-lt22222': draginoLt22222,
};

export const isModelId = (model: string): model is ModelId =>
  (MODEL_IDS as readonly string[]).includes(model);

/** @throws CodecError naming the known models when `model` is not one of them. */
export function getCodec(model: string): DeviceCodec {
  if (!isModelId(model)) {
    throw new CodecError(model, `unknown model; known models: ${MODEL_IDS.join(', ')}.`);
  }
  return CODECS[model];
}

/** All codecs in registry order. */
export const listCodecs = (): DeviceCodec[] => MODEL_IDS.map((id) => CODECS[id]);
