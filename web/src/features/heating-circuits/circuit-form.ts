/**
 * The heating circuit dialog's form: its values, named as the API's fields so the contract's and
 * the server's messages land on them, validated by the contract's create schema (which also
 * checks that the return is below the supply and the lowest supply below the highest). An update
 * sends every field but the building, which a circuit keeps.
 */
import {
  type CircuitMode,
  type CircuitOutput,
  type CircuitOutputInput,
  type GeneratorType,
  type HeatingCircuit,
  HeatingCircuitCreateSchema,
  type HeatingCircuitUpdate,
} from '@heizplan/contracts/heating-circuits';
import type { z } from 'zod';

export interface CircuitForm {
  name: string;
  /** '' until a building is chosen. */
  buildingId: string;
  generatorType: GeneratorType;
  designSupply: number;
  designReturn: number;
  designOutdoor: number;
  curveSupply: number;
  curveRoom: number;
  minSupply: number;
  maxSupply: number;
  mode: CircuitMode;
  /** Where the command goes in mode "on"; null for none. */
  output: CircuitOutputInput | null;
  unitIds: string[];
}

/**
 * The output as the form edits it: as read, without `hasPassword` and without a password, which
 * the server keeps when none is sent (contracts: `CircuitOutputInputSchema`).
 */
export function outputInputOf(output: CircuitOutput | null): CircuitOutputInput | null {
  if (output === null) return null;
  if (output.kind !== 'mqtt') return output;
  const { hasPassword: _stored, ...rest } = output;
  return rest;
}

/** A new circuit: the installer's usual 70/55 °C at −12 °C, computed and shown, nothing sent. */
export const emptyForm = (buildingId: string | null): CircuitForm => ({
  name: '',
  buildingId: buildingId ?? '',
  generatorType: 'condensing_boiler',
  designSupply: 70,
  designReturn: 55,
  designOutdoor: -12,
  curveSupply: 70,
  curveRoom: 20,
  minSupply: 25,
  maxSupply: 75,
  mode: 'shadow',
  output: null,
  unitIds: [],
});

export const formOf = (circuit: HeatingCircuit): CircuitForm => ({
  name: circuit.name,
  buildingId: circuit.buildingId,
  generatorType: circuit.generatorType,
  designSupply: circuit.designSupply,
  designReturn: circuit.designReturn,
  designOutdoor: circuit.designOutdoor,
  curveSupply: circuit.curveSupply,
  curveRoom: circuit.curveRoom,
  minSupply: circuit.minSupply,
  maxSupply: circuit.maxSupply,
  mode: circuit.mode,
  output: outputInputOf(circuit.output),
  unitIds: circuit.unitIds,
});

export const circuitFormSchema = HeatingCircuitCreateSchema;
export type CircuitBody = z.output<typeof circuitFormSchema>;

/** The update a valid form asks for: everything but the building. */
export function updateOf(body: CircuitBody): HeatingCircuitUpdate {
  const { buildingId: _building, ...rest } = body;
  return rest;
}
