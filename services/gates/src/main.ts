import 'reflect-metadata';
import { startGates } from './gates-service';

void startGates();
