import 'reflect-metadata';
import { startNotifier } from './notifier-service';

void startNotifier();
