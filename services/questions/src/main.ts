import 'reflect-metadata';
import { startQuestions } from './questions-service';

void startQuestions();
