#!/usr/bin/env node
/**
 * `npm run inventory`: what a deployment is made of, per monitoring profile, counted from the synthesized stack — the
 * table of docs/operating.md "What gets deployed" (a test keeps it equal).
 */
import { deployedInventory, inventoryTable } from '../lib/synth/inventory';

console.log(inventoryTable(deployedInventory()));
