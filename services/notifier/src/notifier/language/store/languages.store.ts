import type { EntityManager } from 'typeorm';
import { isLanguage, type Language, type LanguageView } from '@openq/contracts';

/** Issue #30 what openq writes to a person on a project in: theirs, else the project's, else `en`. */
export async function recipientLanguage(
  m: EntityManager,
  projectId: string,
  userId: string,
): Promise<Language> {
  const [row] = (await m.query(
    `SELECT COALESCE(
       (SELECT language FROM user_language WHERE user_id = $2),
       (SELECT language FROM project_language WHERE project_id = $1)
     ) AS language`,
    [projectId, userId],
  )) as { language: string | null }[];
  return isLanguage(row?.language) ? row.language : 'en';
}

export async function userLanguage(m: EntityManager, userId: string): Promise<LanguageView> {
  const [row] = (await m.query(`SELECT language, updated_at FROM user_language WHERE user_id = $1`, [
    userId,
  ])) as { language: Language; updated_at: Date }[];
  return {
    userId,
    language: row?.language ?? null,
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
  };
}

export async function setUserLanguage(
  m: EntityManager,
  userId: string,
  language: Language | null,
): Promise<void> {
  if (language === null) await m.query(`DELETE FROM user_language WHERE user_id = $1`, [userId]);
  else
    await m.query(
      `INSERT INTO user_language (user_id, language) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET language = EXCLUDED.language, updated_at = now()`,
      [userId, language],
    );
}

export async function projectLanguage(
  m: EntityManager,
  projectId: string,
  userId: string,
): Promise<LanguageView> {
  const [row] = (await m.query(`SELECT language, updated_at FROM project_language WHERE project_id = $1`, [
    projectId,
  ])) as { language: Language; updated_at: Date }[];
  return {
    projectId,
    language: row?.language ?? null,
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
    effective: await recipientLanguage(m, projectId, userId),
  };
}

export async function setProjectLanguage(
  m: EntityManager,
  projectId: string,
  language: Language | null,
): Promise<void> {
  if (language === null) await m.query(`DELETE FROM project_language WHERE project_id = $1`, [projectId]);
  else
    await m.query(
      `INSERT INTO project_language (project_id, language) VALUES ($1, $2)
       ON CONFLICT (project_id) DO UPDATE SET language = EXCLUDED.language, updated_at = now()`,
      [projectId, language],
    );
}
