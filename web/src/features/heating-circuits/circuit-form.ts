/**
 * The heating circuit dialog's form: its values, named as the API's fields so the contract's and
 * the server's messages land on them, validated by the contract's create schema (which also
 * checks that the return is below the supply and the lowest supply below the highest). An update
 * sends every field but the building, which a circuit keeps.
 */
import {
  type CircuitMode,
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
  unitIds: string[];
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
  unitIds: circuit.unitIds,
});

export const circuitFormSchema = HeatingCircuitCreateSchema;
export type CircuitBody = z.output<typeof circuitFormSchema>;

/** The update a valid form asks for: everything but the building. */
export function updateOf(body: CircuitBody): HeatingCircuitUpdate {
  const { buildingId: _building, ...rest } = body;
  return rest;
}
