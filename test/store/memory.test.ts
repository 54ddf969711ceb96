import { createMemoryStore } from '../../src/store/memory.ts';
import { storeContract } from './contract.ts';

storeContract('memory store', async () => createMemoryStore());
