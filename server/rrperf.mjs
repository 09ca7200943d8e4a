import rrule from 'rrule';
const { RRule } = rrule;
const opts = RRule.parseString('FREQ=DAILY');
const r = new RRule({ ...opts, dtstart: new Date(Date.UTC(2006,0,1,18,0)) });
let t = performance.now();
const a = r.between(new Date(Date.UTC(2026,0,1)), new Date(Date.UTC(2027,2,1)), true);
console.log('between 20y daily', a.length, performance.now() - t);
t = performance.now();
const all = r.all((d, i) => i < 50000);
console.log('all 50k', all.length, performance.now() - t);
t = performance.now();
const r2 = new RRule({ ...RRule.parseString('FREQ=WEEKLY;BYDAY=SA,SU'), dtstart: new Date(Date.UTC(2026,0,3,0,0)) });
for (let i=0;i<100;i++) r2.between(new Date(Date.UTC(2026,3,1)), new Date(Date.UTC(2027,5,1)), true);
console.log('100x weekly between', performance.now() - t);
console.log(RRule.parseString('FREQ=YEARLY;UNTIL=20301231T235959Z'));
console.log(RRule.parseString('FREQ=WEEKLY;UNTIL=20301231'));
try { console.log(RRule.parseString('FREQ=WEEKLY;FOO=1')); } catch (e) { console.log('err', e.message); }
try { console.log(RRule.parseString('FREQ=WEEKLY;BYDAY=XX')); } catch (e) { console.log('err', e.message); }
try { console.log(RRule.parseString('FREQ=WEEKLY;COUNT=abc')); } catch (e) { console.log('err', e.message); }
try { console.log(RRule.parseString('FREQ=WEEKLY;INTERVAL=0')); } catch (e) { console.log('err', e.message); }
try { console.log(RRule.parseString('DTSTART:20200101T000000Z\nRRULE:FREQ=WEEKLY')); } catch (e) { console.log('err', e.message); }
try { console.log(RRule.parseString('freq=weekly')); } catch (e) { console.log('err', e.message); }
try { console.log(RRule.parseString('FREQ=WEEKLY;BYMONTH=13')); const x = new RRule({...RRule.parseString('FREQ=WEEKLY;BYMONTH=13'), dtstart: new Date()}); console.log(x.all((d,i)=>i<3)); } catch (e) { console.log('err', e.message); }
try { console.log(RRule.parseString('FREQ=MONTHLY;BYMONTHDAY=31;UNTIL=xx')); } catch (e) { console.log('err', e.message); }
