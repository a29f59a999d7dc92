import { returnedRows } from './returned-rows';

describe('returnedRows', () => {
  it("reads the rows of TypeORM's [rows, rowCount] for UPDATE and DELETE", () => {
    expect(returnedRows([[{ id: 'a' }], 1])).toEqual([{ id: 'a' }]);
    expect(returnedRows([[], 0])).toEqual([]);
  });

  it('passes the rows of any other command through', () => {
    expect(returnedRows([{ id: 'a' }, { id: 'b' }])).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(returnedRows([])).toEqual([]);
  });
});
