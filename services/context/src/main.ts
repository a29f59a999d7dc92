import 'reflect-metadata';
import { startContext } from './context-service';

void startContext();
